/**
 * `after_response { <steps> }`: work that runs once the request has been answered, such as a webhook
 * after a change that committed. The pipeline's answer is written first; then, when it is a response
 * below 400 (not a failure, not a stream, not a 4xx/5xx the pipeline chose), the after steps run
 * with the request's `ctx` and the pipeline's step outputs, in a graph of their own
 * (src/steps/compile.ts). Nothing of it can change the answer, which is gone.
 *
 * Bounded, so that a slow receiver cannot take the process with it:
 * - at most MAX_RUNNING run at once in the process; the next ones wait in a queue of at most
 *   MAX_WAITING, and one past that is dropped (logged, never silently);
 * - each step keeps its own time-outs (an `http` step's `timeout` and `retry`, `statement_timeout`);
 * - at shutdown (`drain`), the running ones get until the deadline (the server's
 *   `shutdown_timeout`), then are cancelled: their steps' I/O is aborted as a departed client's
 *   would be. Those still waiting are dropped. Both are logged with their count.
 *
 * A failure ends that request's after work (its later steps do not run), as it would end a
 * pipeline; `on_error = "continue"` on a step lets the others go on. Each failure is logged.
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
