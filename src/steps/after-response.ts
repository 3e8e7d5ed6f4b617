/**
 * `after_response { <steps> }` (docs/steps.md "Work after the response"): run once the answer is
 * written, and only for one below 400, in a graph of its own with the request's `ctx` and the
 * pipeline's outputs; nothing of it can change the answer. Bounded so a slow receiver cannot take
 * the process with it: MAX_RUNNING at once, MAX_WAITING queued, one past that dropped (logged, never
 * silently); at `drain` the running get until the shutdown deadline, then are cancelled like a
 * departed client's. A failure ends that request's after work unless `on_error = "continue"`.
 */
import type { CompiledGraph, StepError } from '../../graph/index.js';
import type { EndpointScope, RequestContext } from './contract.js';

/** After works running at once in the process. */
export const MAX_RUNNING = 64;
/** After works waiting for one of those; past it, new ones are dropped. */
export const MAX_WAITING = 10_000;

/** Where the runner reports (svc serve: its logger). */
export interface AfterResponseReports {
  /** A step failed: that request's after work ended there. */
  failed?(error: StepError, ctx: RequestContext): void;
  /** The queue was full: this request's after work never ran. */
  dropped?(ctx: RequestContext): void;
  /** At shutdown: `cancelled` were cut at the deadline, `dropped` never started. */
  stopped?(counts: { readonly cancelled: number; readonly dropped: number }): void;
}

interface Work {
  readonly graph: CompiledGraph<EndpointScope>;
  readonly scope: EndpointScope;
}

export class AfterResponseRunner {
  readonly #reports: AfterResponseReports;
  readonly #maxRunning: number;
  readonly #maxWaiting: number;
  readonly #waiting: Work[] = [];
  /** The running works' cancellations. */
  readonly #running = new Set<AbortController>();
  #idle: (() => void) | undefined;
  #stopping = false;

  constructor(reports: AfterResponseReports = {}, limits: { maxRunning?: number; maxWaiting?: number } = {}) {
    this.#reports = reports;
    this.#maxRunning = limits.maxRunning ?? MAX_RUNNING;
    this.#maxWaiting = limits.maxWaiting ?? MAX_WAITING;
  }

  /** Works running and waiting. */
  get pending(): number {
    return this.#running.size + this.#waiting.length;
  }

  /**
   * Runs `graph` on `scope` once the answer has been written: started from the next turn of the
   * event loop at the earliest (the caller is writing the answer in this one).
   */
  schedule(graph: CompiledGraph<EndpointScope>, scope: EndpointScope): void {
    // Counted with the running ones: works scheduled in one turn all wait until the next.
    if (this.#stopping || this.#running.size + this.#waiting.length >= this.#maxRunning + this.#maxWaiting) {
      this.#reports.dropped?.(scope.ctx);
      return;
    }
    this.#waiting.push({ graph, scope });
    if (this.#waiting.length === 1) setImmediate(() => this.#startWaiting());
  }

  /**
   * Shutdown: no new work; the running ones get until `deadlineMs` from now, then are cancelled;
   * the waiting ones are dropped. Resolves when none runs.
   */
  async drain(deadlineMs: number): Promise<void> {
    this.#stopping = true;
    const dropped = this.#waiting.splice(0).length;
    let cancelled = 0;
    if (this.#running.size > 0) {
      const idle = new Promise<void>((resolve) => {
        this.#idle = resolve;
      });
      const timer = setTimeout(() => {
        cancelled = this.#running.size;
        for (const controller of this.#running) controller.abort(new Error('the server is shutting down'));
      }, deadlineMs);
      await idle;
      clearTimeout(timer);
    }
    if (cancelled > 0 || dropped > 0) this.#reports.stopped?.({ cancelled, dropped });
  }

  #startWaiting(): void {
    while (this.#running.size < this.#maxRunning && this.#waiting.length > 0 && !this.#stopping) this.#start(this.#waiting.shift()!);
  }

  #start(work: Work): void {
    const controller = new AbortController();
    this.#running.add(controller);
    work.graph.runPromise(work.scope, controller.signal).then(
      (outcome) => {
        if (outcome.kind === 'error' && !controller.signal.aborted) this.#reports.failed?.(outcome.error, work.scope.ctx);
        this.#finish(controller);
      },
      () => this.#finish(controller),
    );
  }

  #finish(controller: AbortController): void {
    this.#running.delete(controller);
    if (this.#waiting.length > 0 && !this.#stopping) this.#startWaiting();
    else if (this.#running.size === 0) this.#idle?.();
  }
}
