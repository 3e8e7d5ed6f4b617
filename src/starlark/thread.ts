// The thread a Starlark computation runs on, as in starlark-go: budget, clock, cancellation, depth,
// size limits and hooks. Each entry point runs on a fresh one, handed down explicitly, so a compiled
// program is never written to and a built-in calling back into Starlark charges the same budget.
// A leaf module, so value operations can charge work without an import cycle.

import { EvalErr, type Value } from './values/value.js';
import { DEFAULT_SIZE_LIMITS, type SizeLimits } from './values/limits.js';

/** Limits and hooks of one run (init or call). */
export interface RunOptions {
  /** execution-step budget (loop iterations + calls); default 1,000,000 */
  maxSteps?: number;
  /** wall-clock budget in ms; default 1000 */
  timeoutMs?: number;
  /**
   * Part of the budget already spent before the run started (a host that
   * queued the call, e.g. waiting for a worker thread): the deadline is
   * `timeoutMs - elapsedMs` from now, while errors still name `timeoutMs`.
   */
  elapsedMs?: number;
  /** max Starlark call depth; default 400 */
  maxDepth?: number;
  /** size limits on strings and collections built by the script */
  limits?: Partial<SizeLimits>;
  /** print() output; default: discarded */
  print?: (line: string) => void;
  /** loader for load(); default: load is refused */
  load?: (module: string) => Map<string, Value>;
  /**
   * A flag another thread sets (`Atomics.store(flag, 0, 1)`) to cancel the run
   * from outside, since a run is synchronous: read at every clock check, so the
   * run stops within CLOCK_EVERY steps with a 'cancelled' error.
   */
  interrupt?: Int32Array;
  /**
   * With `interrupt`: only this value in the flag cancels the run (a host sharing one flag between
   * runs queued on a thread stores the id of the run to cancel); without it, any value but 0 does.
   */
  interruptId?: number;
}

export const DEFAULT_MAX_STEPS = 1_000_000;
export const DEFAULT_TIMEOUT_MS = 1000;
export const DEFAULT_MAX_DEPTH = 400;

/** How often (in steps) the wall clock is consulted. */
export const CLOCK_EVERY = 1024;

function noPrint(): void {}

export class Thread {
  /** steps taken so far: one per loop iteration and call, plus bulk work charged by built-ins */
  steps = 0;
  /**
   * Step count at which tick() must run next. The hot paths only compare
   * `++steps > checkAt`; the budget, cancellation and the clock are consulted
   * in tick(), at most CLOCK_EVERY steps apart.
   */
  checkAt: number;
  readonly maxSteps: number;
  /** performance.now() after which the run times out */
  readonly deadline: number;
  readonly timeoutMs: number;
  /** Starlark call depth */
  depth = 0;
  readonly maxDepth: number;
  /** false in the dialect that forbids recursion; then `active` holds the functions being run */
  readonly recursion: boolean;
  /** code of the functions active on this thread (FuncCode objects), in the no-recursion dialect only */
  readonly active: Set<object> | null;
  readonly maxStringBytes: number;
  readonly maxElements: number;
  readonly maxAllocBytes: number;
  /** bytes allocated in bulk so far (8 per element): repetition, concatenation, join, formatting */
  allocated = 0;
  readonly print: (msg: string) => void;
  /** the host's loader for load("module", ...), or null if loading is refused */
  readonly load: ((module: string) => Map<string, Value>) | null;
  /** why the run was cancelled (cancel()), or null */
  cancelled: string | null = null;
  /** RunOptions.interrupt, or null */
  readonly interrupt: Int32Array | null;
  /** RunOptions.interruptId, or 0: any value but 0 cancels */
  readonly interruptId: number;

  constructor(opts: RunOptions = {}, recursion = true) {
    this.maxSteps = opts.maxSteps ?? DEFAULT_MAX_STEPS;
    this.checkAt = Math.min(CLOCK_EVERY, this.maxSteps);
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.deadline = performance.now() + this.timeoutMs - (opts.elapsedMs ?? 0);
    this.maxDepth = opts.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.recursion = recursion;
    this.active = recursion ? null : new Set();
    const lim = opts.limits;
    this.maxStringBytes = lim?.maxStringBytes ?? DEFAULT_SIZE_LIMITS.maxStringBytes;
    this.maxElements = lim?.maxElements ?? DEFAULT_SIZE_LIMITS.maxElements;
    this.maxAllocBytes = lim?.maxAllocBytes ?? DEFAULT_SIZE_LIMITS.maxAllocBytes;
    this.print = opts.print ?? noPrint;
    this.load = opts.load ?? null;
    this.interrupt = opts.interrupt ?? null;
    this.interruptId = opts.interruptId ?? 0;
  }

  /**
   * Stop the computation at its next step with a 'cancelled' error (like
   * starlark-go's Thread.Cancel). A run is synchronous, so this is for hooks
   * and built-ins that run inside it.
   */
  cancel(reason: string): void {
    if (this.cancelled === null) this.cancelled = reason;
    this.checkAt = -1;
  }

  /** Called when steps pass checkAt: enforce the step budget, cancellation and the deadline. */
  tick(): void {
    if (this.steps > this.maxSteps) throw new EvalErr(`Starlark computation cancelled: too many steps (limit ${this.maxSteps})`, 'steps');
    if (this.interrupt !== null && this.interrupted(Atomics.load(this.interrupt, 0))) this.cancelled ??= 'interrupted by the host';
    if (this.cancelled !== null) throw new EvalErr(`Starlark computation cancelled: ${this.cancelled}`, 'cancelled');
    if (performance.now() > this.deadline) throw new EvalErr(`Starlark computation cancelled: timeout after ${this.timeoutMs} ms`, 'timeout');
    this.checkAt = Math.min(this.steps + CLOCK_EVERY, this.maxSteps);
  }

  private interrupted(flag: number): boolean {
    return this.interruptId === 0 ? flag !== 0 : flag === this.interruptId;
  }

  /**
   * Charge bulk work (e.g. sorting or copying n elements) to the step budget:
   * one step per 64 units. This also makes the clock be consulted during loops
   * whose iterations call expensive built-ins.
   */
  chargeSteps(units: number): void {
    this.steps += units >> 6;
    if (this.steps > this.checkAt) this.tick();
  }

  /** Charge a bulk allocation of `bytes` to this run. */
  chargeAlloc(bytes: number): void {
    this.allocated += bytes;
    if (this.allocated > this.maxAllocBytes) {
      throw new EvalErr(`allocation limit exceeded (more than ${this.maxAllocBytes} bytes built in bulk by this run)`, 'size');
    }
  }

  checkStrLen(n: number): void {
    if (n > this.maxStringBytes) throw new EvalErr(`string size limit exceeded (${n} > ${this.maxStringBytes} bytes)`, 'size');
  }

  checkElems(n: number): void {
    if (n > this.maxElements) throw new EvalErr(`collection size limit exceeded (${n} > ${this.maxElements} elements)`, 'size');
  }
}
