import { RunAbortedError } from './errors.js';
import type { RunContext } from './types.js';

/**
 * Per-run cancellation state, passed to steps as their RunContext.
 *
 * Cheap by construction: a synchronous run allocates this one small object and nothing else. The
 * AbortController is only created when a step reads `signal` (real I/O), and `abort()` on a run
 * whose controller was never created is a flag write. Teardown callbacks (`onAbort`) exist for work
 * that was started eagerly but whose continuation may never be subscribed (a container whose body
 * went asynchronous inside a parallel branch that a failing sibling abandoned): the run's end must
 * still reach it.
 */
export class RunState implements RunContext {
  private controller: AbortController | undefined = undefined;
  private callbacks: (() => void)[] | undefined = undefined;
  private ended = false;

  constructor(private readonly external: AbortSignal | undefined) {}

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      // Read after the end (a late step of an abandoned branch): hand out an already aborted signal.
      if (this.ended) this.controller.abort(new RunAbortedError());
      else if (this.external?.aborted) this.controller.abort(this.external.reason);
    }
    return this.controller.signal;
  }

  /** Registers teardown work; returns a function that unregisters it (call it once settled). */
  onAbort(callback: () => void): () => void {
    if (this.ended) {
      callback();
      return noop;
    }
    (this.callbacks ??= []).push(callback);
    return () => {
      const list = this.callbacks;
      if (list === undefined) return;
      const i = list.indexOf(callback);
      if (i >= 0) list.splice(i, 1);
    };
  }

  /** Ends the run: idempotent. Fires the signal (if anyone holds it) and pending teardown work. */
  abort(reason?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    const list = this.callbacks;
    this.callbacks = undefined;
    if (this.controller !== undefined) this.controller.abort(reason ?? new RunAbortedError());
    if (list !== undefined) for (const cb of list) cb();
  }
}

function noop(): void {}
