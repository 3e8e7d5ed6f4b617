/**
 * The worker threads Starlark calls run on once they outgrow their slice on the event loop
 * (slice.ts; issue 15, class 1). One pool per process, one worker per CPU but one, started on first
 * use; each worker compiles every program it runs once.
 *
 * A call's budget runs from the step's request, queueing included (not the first workers' start-up),
 * and is enforced three times: queued, it fails; running, the interpreter stops it (its clock is
 * checked inside built-ins too); a worker silent KILL_SLACK past the budget is terminated and the call
 * fails with the same `timeout`. A cancel sets the worker's interrupt flag (killed after CANCEL_GRACE_MS).
 *
 * Calls are pipelined (PIPELINE a worker, one message a turn, worker.ts): the thread round trip per
 * call bounded short scripts on few cores (bench/transform). So the flag's second cell names the call
 * running, and a kill or cancel hits that call only; the others a killed worker held run again
 * elsewhere on what is left of their budgets (scripts have no side effects).
 *
 * Not piscina: v5 needs a native addon, and this pool needs a budget that counts the queue, programs
 * compiled once per worker, an interrupt flag, and a kill that answers the call at once.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { StarlarkError, type LinePlace } from '../../starlark/index.js';
import {
  errorFromData,
  wallClock,
  type CallContext,
  type CallMessage,
  type CallsMessage,
  type FromWorker,
  type ProgramDef,
  type ProgramModules,
} from './protocol.js';

/** The hard kill comes this fraction of the budget, plus KILL_SLACK_MS, after the budget. */
const KILL_SLACK = 0.05;
const KILL_SLACK_MS = 10;
const CANCEL_GRACE_MS = 200;
/**
 * A worker's heap. A call is bounded well below it (256 MiB built in bulk, a million steps of small
 * values, the programs' globals); with a limit of its own, a worker that runs out of memory stops
 * alone (its call fails, another replaces it) instead of taking the process down.
 */
const WORKER_HEAP_MB = 1024;
/**
 * Calls in flight per worker at most. Enough to keep a worker busy while its answers travel back
 * (and to batch the messages of a busy server); few enough that a short call never waits behind
 * many others at one worker while another is free (an idle worker is always chosen first).
 */
const PIPELINE = 8;

interface Task {
  readonly id: number;
  readonly program: ProgramDef;
  readonly ctx: CallContext;
  readonly maxSteps: number;
  readonly timeoutMs: number;
  /** wallClock() when the step asked: the budget runs from here, queueing included */
  readonly requestedAt: number;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: unknown) => void;
  /** The caller has its answer (or gave up): a later reply is dropped. */
  settled: boolean;
  /** Set while it waits for a worker: fails it when its budget runs out in the queue. */
  queueTimer?: NodeJS.Timeout;
  /** Set while a worker holds it: the hard kill (or the end of a cancel's grace). */
  killTimer?: NodeJS.Timeout;
}

/** One worker and what it is doing. */
interface Slot {
  readonly worker: Worker;
  readonly interrupt: Int32Array;
  ready: boolean;
  /**
   * wallClock() when it became ready, for the pool's first workers: a call that waited for one to
   * start is not charged that wait. -Infinity for a replacement (of a killed or lost worker): a call
   * waits for it on its own budget, so overruns never add up to more than the budget.
   */
  readyAt: number;
  readonly replacement: boolean;
  /** The calls sent to it (or about to be) and not answered yet, in order. */
  readonly tasks: Map<number, Task>;
  /** Calls dispatched this turn of the event loop, posted together by #flush. */
  outbox: CallMessage[];
  /** Programs sent to this worker. */
  readonly sent: Set<number>;
  /** Programs initialised there: at start-up (before `ready`), or by a call that completed. */
  readonly warm: Set<number>;
}

/** A call in flight: its result, and a way to give up on it. */
export interface PoolCall {
  readonly result: Promise<unknown>;
  cancel(reason: unknown): void;
}

export class StarlarkPool {
  readonly size: number;
  readonly #programs = new Map<string, ProgramDef>();
  readonly #slots: Slot[] = [];
  readonly #queue: Task[] = [];
  #nextTask = 1;
  #spawned = 0;
  #flushing = false;
  readonly #entry = workerEntry();

  /**
   * One worker per CPU but one: the event loop keeps a CPU of its own while scripts run at their
   * limits (with every CPU spinning a script, /health waited for the scheduler: p99 above 50 ms on
   * two CPUs under load, bench/starlark-loop).
   */
  constructor(
    size = Math.max(1, availableParallelism() - 1),
    readonly heapMb = WORKER_HEAP_MB,
  ) {
    this.size = size;
  }

  /**
   * The program of a step, by content and place (`place`: where an inline program's lines are in its
   * manifest, placement.ts): compiling the same manifest again reuses its entry.
   */
  register(source: string, sourceName: string, maxSteps: number, timeoutMs: number, place?: readonly LinePlace[], modules?: ProgramModules): ProgramDef {
    const key = JSON.stringify([sourceName, maxSteps, timeoutMs, source, place, modules]);
    let def = this.#programs.get(key);
    if (def === undefined) {
      def = { id: this.#programs.size + 1, source, sourceName, ...(place ? { place } : {}), ...(modules ? { modules } : {}), maxSteps, timeoutMs };
      this.#programs.set(key, def);
      for (const slot of this.#slots) if (slot.ready) this.#load(slot, [def]);
    }
    return def;
  }

  /** Runs `execute(ctx)` of a registered program on a worker. */
  call(program: ProgramDef, ctx: CallContext, maxSteps: number, timeoutMs: number): PoolCall {
    let task!: Task;
    const result = new Promise<unknown>((resolve, reject) => {
      task = { id: this.#nextTask++, program, ctx, maxSteps, timeoutMs, requestedAt: wallClock(), resolve, reject, settled: false };
    });
    this.#queue.push(task);
    this.#pump();
    // Queued behind busy workers or a replacement starting: its budget runs out in the queue.
    if (this.#queue.includes(task) && this.#slots.every((s) => s.ready || s.replacement)) {
      task.queueTimer = setTimeout(() => {
        const i = this.#queue.indexOf(task);
        if (i >= 0) this.#queue.splice(i, 1);
        this.#settle(task, timeoutError(timeoutMs, 'waiting for a worker'));
      }, timeoutMs);
    }
    return { result, cancel: (reason) => this.#cancel(task, reason) };
  }

  /** Workers started so far, replacements included (for tests). */
  get started(): number {
    return this.#spawned;
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      // an idle worker first; while none is idle, start workers up to the pool's size
      let slot = this.#least();
      if (slot === undefined || slot.tasks.size > 0) {
        let starting = this.#slots.filter((s) => !s.ready).length;
        while (starting < this.#queue.length && this.#slots.length < this.size) {
          this.#spawn();
          starting++;
        }
        // while the pool's first workers start, calls wait for them rather than pile on one
        if (starting > 0 && slot !== undefined && slot.tasks.size > 0 && this.#spawned <= this.size) slot = undefined;
      }
      if (slot === undefined) return;
      this.#dispatch(slot, this.#queue.shift()!);
    }
  }

  /** The ready worker with the fewest calls, below PIPELINE. */
  #least(): Slot | undefined {
    let best: Slot | undefined;
    for (const s of this.#slots) {
      if (!s.ready || s.tasks.size >= PIPELINE) continue;
      if (best === undefined || s.tasks.size < best.tasks.size) best = s;
      if (best.tasks.size === 0) break;
    }
    return best;
  }

  #spawn(): void {
    // [0]: the id of a call to cancel; [1]: the id of the call running (worker.ts)
    const interrupt = new Int32Array(new SharedArrayBuffer(8));
    // Every program registered so far is initialised before the worker says it is ready, so that no
    // call pays for a top level (the start-up of a replacement is on its callers' budgets).
    const programs = [...this.#programs.values()];
    const worker = new Worker(this.#entry.filename, {
      eval: this.#entry.eval,
      workerData: { interrupt: interrupt.buffer, programs },
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb },
    });
    const replacement = ++this.#spawned > this.size;
    const slot: Slot = {
      worker,
      interrupt,
      ready: false,
      readyAt: replacement ? -Infinity : Infinity,
      replacement,
      tasks: new Map(),
      outbox: [],
      sent: new Set(programs.map((p) => p.id)),
      warm: new Set(programs.map((p) => p.id)),
    };
    this.#slots.push(slot);
    worker.on('message', (message: FromWorker) => this.#onMessage(slot, message));
    worker.on('error', (error) => this.#lost(slot, error));
    worker.on('exit', (code) => this.#lost(slot, new Error(`the Starlark worker exited with code ${code}`)));
  }

  #load(slot: Slot, programs: ProgramDef[]): void {
    slot.worker.postMessage({ type: 'load', programs });
    for (const p of programs) slot.sent.add(p.id);
  }

  #dispatch(slot: Slot, task: Task): void {
    const { program } = task;
    clearTimeout(task.queueTimer);
    // the budget runs from the request, but not while one of the pool's first workers was starting
    const requestedAt = Math.max(task.requestedAt, slot.readyAt);
    const elapsed = wallClock() - requestedAt;
    if (elapsed >= task.timeoutMs) {
      // it waited for a worker past its whole budget
      this.#settle(task, timeoutError(task.timeoutMs, 'waiting for a worker'));
      return;
    }
    slot.outbox.push({
      type: 'call',
      task: task.id,
      program: program.id,
      ...(slot.sent.has(program.id) ? {} : { define: program }),
      ctx: task.ctx,
      maxSteps: task.maxSteps,
      timeoutMs: task.timeoutMs,
      requestedAt,
    });
    slot.sent.add(program.id);
    slot.tasks.set(task.id, task);
    slot.worker.ref();
    // A program registered after the worker started is initialised by its first call there: the
    // top level's own budget is added.
    const initMs = slot.warm.has(program.id) ? 0 : program.timeoutMs;
    const killAfter = task.timeoutMs * (1 + KILL_SLACK) + KILL_SLACK_MS + initMs - elapsed;
    task.killTimer = setTimeout(() => this.#overrun(slot, task, timeoutError(task.timeoutMs, 'the worker was stopped')), killAfter);
    if (!this.#flushing) {
      this.#flushing = true;
      setImmediate(() => this.#flush());
    }
  }

  /** Posts each worker the calls dispatched to it this turn, in one message. */
  #flush(): void {
    this.#flushing = false;
    for (const slot of this.#slots) {
      if (slot.outbox.length === 0) continue;
      const calls = slot.outbox;
      slot.outbox = [];
      try {
        slot.worker.postMessage({ type: 'calls', calls } satisfies CallsMessage);
      } catch {
        // One ctx a thread cannot receive (a function, a stream in `steps`): the others go one by one.
        for (const call of calls) this.#postOne(slot, call);
      }
    }
  }

  #postOne(slot: Slot, call: CallMessage): void {
    try {
      slot.worker.postMessage({ type: 'calls', calls: [call] } satisfies CallsMessage);
    } catch (error) {
      const task = slot.tasks.get(call.task);
      if (task === undefined) return;
      this.#release(slot, task);
      // refused like fromJS refuses it
      this.#settle(task, new StarlarkError('convert', `cannot pass ctx to the script: ${error instanceof Error ? error.message : String(error)}`));
      // a program defined by this message is sent again with the next call
      if (call.define !== undefined) slot.sent.delete(call.define.id);
    }
  }

  /** The worker no longer holds `task`. */
  #release(slot: Slot, task: Task): void {
    clearTimeout(task.killTimer);
    slot.tasks.delete(task.id);
    if (slot.tasks.size === 0) slot.worker.unref();
  }

  #onMessage(slot: Slot, message: FromWorker): void {
    if (message.type === 'ready') {
      slot.ready = true;
      if (!slot.replacement) slot.readyAt = wallClock();
      slot.worker.unref();
      // registered while it started
      const programs = [...this.#programs.values()].filter((p) => !slot.sent.has(p.id));
      if (programs.length > 0) this.#load(slot, programs);
      this.#pump();
      return;
    }
    for (const answer of message.answers) {
      const task = slot.tasks.get(answer.task);
      if (task === undefined) continue;
      this.#release(slot, task);
      slot.warm.add(task.program.id);
      if (answer.error === undefined) this.#settle(task, undefined, answer.result);
      else this.#settle(task, errorFromData(answer.error));
    }
    this.#pump();
  }

  #settle(task: Task, error: unknown, result?: unknown): void {
    if (task.settled) return;
    task.settled = true;
    if (error === undefined) task.resolve(result);
    else task.reject(error);
  }

  #cancel(task: Task, reason: unknown): void {
    if (task.settled) return;
    const queued = this.#queue.indexOf(task);
    if (queued >= 0) this.#queue.splice(queued, 1);
    clearTimeout(task.queueTimer);
    this.#settle(task, reason ?? new StarlarkError('cancelled', 'Starlark computation cancelled'));
    const slot = this.#slots.find((s) => s.tasks.has(task.id));
    if (slot === undefined) return;
    // The worker stops it at its next clock check (or skips it, still queued there); killed otherwise.
    Atomics.store(slot.interrupt, 0, task.id);
    clearTimeout(task.killTimer);
    task.killTimer = setTimeout(() => this.#overrun(slot, task, reason), CANCEL_GRACE_MS);
  }

  /**
   * `task` has not answered by its kill time: the worker is killed if it is running that call. If
   * it runs another (an earlier one, with a kill time of its own, while this one waits; or a later
   * one while this one's answer waits behind it), or is between calls (its answers on their way),
   * this looks again a little later.
   */
  #overrun(slot: Slot, task: Task, error: unknown, retries = 0): void {
    const running = Atomics.load(slot.interrupt, 1);
    // between calls for 100 looks in a row (a second): stuck outside any call, killed all the same
    if (running === task.id || (running === 0 && retries >= 100)) {
      this.#kill(slot, task, error);
      return;
    }
    task.killTimer = setTimeout(() => this.#overrun(slot, task, error, running === 0 ? retries + 1 : 0), KILL_SLACK_MS);
  }

  /**
   * Terminates a worker that overran `task`'s budget (or ignored its cancel): the call fails with
   * `error`; the other calls it held go back to the front of the queue, on their own budgets.
   */
  #kill(slot: Slot, task: Task, error: unknown): void {
    this.#remove(slot);
    this.#settle(task, error);
    this.#requeue(slot, task);
    void slot.worker.terminate();
    this.#pump();
  }

  /** A worker died on its own (out of memory, a defect): its running call fails, another replaces it. */
  #lost(slot: Slot, error: Error): void {
    if (!this.#remove(slot)) return;
    const outOfMemory = (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY';
    // the call it was running (the flag's second cell); the others it held run again elsewhere
    const running = slot.tasks.get(Atomics.load(slot.interrupt, 1));
    if (running !== undefined) {
      this.#settle(running, outOfMemory ? new StarlarkError('size', `out of memory: the script's worker passed its ${this.heapMb} MB heap`) : error);
    }
    this.#requeue(slot, running);
    this.#pump();
  }

  /** The calls a removed worker held, but `failed`, back to the front of the queue. */
  #requeue(slot: Slot, failed: Task | undefined): void {
    const others: Task[] = [];
    for (const t of slot.tasks.values()) {
      clearTimeout(t.killTimer);
      if (t !== failed && !t.settled) others.push(t);
    }
    slot.tasks.clear();
    slot.outbox = [];
    this.#queue.unshift(...others);
  }

  #remove(slot: Slot): boolean {
    const i = this.#slots.indexOf(slot);
    if (i < 0) return false;
    this.#slots.splice(i, 1);
    return true;
  }
}

/**
 * The worker's entry: built, worker.js beside this file. From the TypeScript sources (tests, `--tsx`
 * benchmarks), Node 20 does not apply the parent's `--import tsx` hooks to a worker's entry, so the
 * worker registers tsx itself before importing worker.ts.
 */
function workerEntry(): { filename: string | URL; eval: boolean } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { filename: new URL('./worker.js', here), eval: false };
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const worker = JSON.stringify(new URL('./worker.ts', here).href);
  return { filename: `import(${tsx}).then((tsx) => { tsx.register(); return import(${worker}); })`, eval: true };
}

function timeoutError(timeoutMs: number, how: string): StarlarkError {
  return new StarlarkError('timeout', `Starlark computation cancelled: timeout after ${timeoutMs} ms (${how})`);
}

let shared: StarlarkPool | undefined;

/** The process' pool, made on first use. */
export function starlarkPool(): StarlarkPool {
  shared ??= new StarlarkPool();
  return shared;
}
