/**
 * A thread of the Starlark pool (pool.ts): initialises each program once, then runs `execute(ctx)`
 * calls one at a time under the step's limits and the interrupt flag; results are converted here,
 * under the result limits, so a value too large to send never leaves the worker. The flag's second
 * cell holds the running call's id (0 between calls): a batch's answers go back together, so a call
 * may have finished while its answer waits, and the pool must not kill the worker for it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { callFunction, compileError, compileModule, DEFAULT_SIZE_LIMITS, StarlarkError, toJS, type StarlarkModule } from '../../starlark/index.js';
import { contextValue } from './context.js';
import { moduleLoader } from './modules.js';
import { errorToData, resultLimits, wallClock, type Answer, type CallMessage, type FromWorker, type ProgramDef, type ToWorker } from './protocol.js';

const port = parentPort!;
const data = workerData as { interrupt: SharedArrayBuffer; programs: ProgramDef[] };
const interrupt = new Int32Array(data.interrupt);
/** Index of the running call's id in the shared flag (index 0 is the interrupt itself). */
const RUNNING = 1;
const defs = new Map<number, ProgramDef>();
const modules = new Map<number, StarlarkModule>();
const RESULT_LIMITS = resultLimits(DEFAULT_SIZE_LIMITS.maxStringBytes);

function load(def: ProgramDef): StarlarkModule {
  const loaded = modules.get(def.id);
  if (loaded !== undefined) return loaded;
  const { program, errors } = compileModule(def.source, def.sourceName, def.place ? { place: def.place } : {});
  // It compiled and initialised at boot, on the event loop, with the same interpreter and limits.
  if (!program) throw compileError(errors);
  const limits = { maxSteps: def.maxSteps, timeoutMs: def.timeoutMs };
  const module = program.init(def.modules ? { ...limits, load: moduleLoader(def.modules.sources, def.modules.dir, limits) } : limits);
  modules.set(def.id, module);
  return module;
}

function call(message: CallMessage): unknown {
  if (message.define !== undefined) defs.set(message.define.id, message.define);
  const def = defs.get(message.program);
  if (def === undefined) throw new Error(`program ${message.program} was never sent to this worker`);
  const module = load(def);
  // converted as the script reads it
  const ctx = contextValue(message.ctx);
  const elapsedMs = wallClock() - message.requestedAt;
  if (elapsedMs >= message.timeoutMs) {
    // queued here behind other calls past its whole budget
    throw new StarlarkError('timeout', `Starlark computation cancelled: timeout after ${message.timeoutMs} ms (waiting for a worker)`);
  }
  // cancelled while it waited here: the pool stored its id in the flag
  if (Atomics.load(interrupt, 0) === message.task) throw new StarlarkError('cancelled', 'Starlark computation cancelled: interrupted by the host');
  const result = callFunction(module, 'execute', [ctx], {
    maxSteps: message.maxSteps,
    timeoutMs: message.timeoutMs,
    elapsedMs,
    interrupt,
    interruptId: message.task,
  });
  return toJS(result, RESULT_LIMITS);
}

function send(message: FromWorker): void {
  port.postMessage(message);
}

function preload(programs: readonly ProgramDef[]): void {
  for (const def of programs) {
    defs.set(def.id, def);
    try {
      load(def);
    } catch {
      // It initialised at boot under the same limits; should it fail here, its first call reports why.
    }
  }
}

/**
 * A program whose last call on this worker took less is quick: held answers may wait for its next
 * call. (The last call, not the longest: the first calls of a program are slow while V8 compiles.)
 */
const QUICK_MS = 1;
/** Answers held this long are sent before the next call starts, whatever it is. */
const HOLD_MS = 1;
/** The duration of each program's last call on this worker, in ms. */
const lastTook = new Map<number, number>();

port.on('message', (message: ToWorker) => {
  if (message.type === 'load') {
    preload(message.programs);
    return;
  }
  let held: Answer[] = [];
  let heldSince = 0;
  for (const c of message.calls) {
    // Held answers go before a call that may be long: never more than a quick call's delay.
    if (held.length > 0 && (!((lastTook.get(c.program) ?? Infinity) < QUICK_MS) || performance.now() - heldSince > HOLD_MS)) {
      send({ type: 'answers', answers: held });
      held = [];
    }
    const started = performance.now();
    Atomics.store(interrupt, RUNNING, c.task);
    let answer: Answer;
    try {
      answer = { task: c.task, result: call(c) };
    } catch (error) {
      answer = { task: c.task, error: errorToData(error) };
    }
    Atomics.store(interrupt, RUNNING, 0);
    lastTook.set(c.program, performance.now() - started);
    if (held.length === 0) heldSince = performance.now();
    held.push(answer);
  }
  if (held.length > 0) send({ type: 'answers', answers: held });
});

preload(data.programs);
send({ type: 'ready' });
