/**
 * The messages between the Starlark worker pool (pool.ts, on the event loop) and its worker threads
 * (worker.ts), and the conversion of a script's error to data and back: a `StarlarkError` cannot
 * cross a thread, its fields can.
 */
import type { ModuleSources } from './modules.js';
import { DEFAULT_CONVERT_LIMITS, StarlarkError, type ConvertLimits, type LinePlace, type StarlarkDiagnostic } from '../../starlark/index.js';

/** A compiled step's program, as a worker compiles and initialises it (once per worker). */
export interface ProgramDef {
  readonly id: number;
  readonly source: string;
  readonly sourceName: string;
  /** Where an inline program's lines are in its manifest (placement.ts): its errors name those. */
  readonly place?: readonly LinePlace[];
  /** The modules its `load` statements name, read at boot (modules.ts): a worker reads no file. */
  readonly modules?: ProgramModules;
  /** The limits its top level ran under at boot (it succeeded there, so it succeeds here). */
  readonly maxSteps: number;
  readonly timeoutMs: number;
}

/** A program's loadable modules (by absolute path) and the directory its own loads are relative to. */
export interface ProgramModules {
  readonly sources: ModuleSources;
  readonly dir: string;
}

/**
 * The data a script's `ctx` is made of: request, timestamp_epoch, request_id, auth, steps. A member
 * the script cannot read (context.ts, from its static reads) is `undefined`: not sent.
 */
export interface CallContext {
  readonly request:
    | {
        readonly method: string | undefined;
        readonly path: unknown;
        readonly query: unknown;
        readonly headers: Record<string, string | string[] | undefined> | undefined;
        readonly body: unknown;
      }
    | undefined;
  readonly timestamp_epoch: number | undefined;
  readonly request_id: string | undefined;
  readonly auth: unknown;
  readonly steps: Record<string, unknown> | undefined;
}

export interface CallMessage {
  readonly type: 'call';
  readonly task: number;
  readonly program: number;
  /** Present when this worker has not loaded the program yet. */
  readonly define?: ProgramDef;
  readonly ctx: CallContext;
  readonly maxSteps: number;
  readonly timeoutMs: number;
  /**
   * When the step asked for the call (`performance.timeOrigin + performance.now()`, comparable across
   * threads): time spent queued counts against the budget.
   */
  readonly requestedAt: number;
}

/** Now, comparable across threads (each thread's `performance.now()` has its own origin). */
export function wallClock(): number {
  return performance.timeOrigin + performance.now();
}

/** Programs registered after the worker started, loaded ahead of their first call. */
export interface LoadMessage {
  readonly type: 'load';
  readonly programs: readonly ProgramDef[];
}

/** The calls dispatched to a worker in one turn of the event loop, run in order. */
export interface CallsMessage {
  readonly type: 'calls';
  readonly calls: readonly CallMessage[];
}

export type ToWorker = CallsMessage | LoadMessage;

/** A call's answer: its result, or its error. */
export interface Answer {
  readonly task: number;
  readonly result?: unknown;
  readonly error?: ErrorData;
}

export type FromWorker = { readonly type: 'ready' } | { readonly type: 'answers'; readonly answers: readonly Answer[] };

/** A StarlarkError as data (kind 'internal' for anything else a worker threw: a defect). */
export interface ErrorData {
  readonly kind: string;
  readonly msg: string;
  readonly callStack: StarlarkError['callStack'];
  readonly diagnostics: readonly StarlarkDiagnostic[];
  readonly stack?: string;
}

export function errorToData(error: unknown): ErrorData {
  if (error instanceof StarlarkError) {
    return { kind: error.kind, msg: error.msg, callStack: error.callStack, diagnostics: error.diagnostics };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { kind: 'internal', msg: `${e.name}: ${e.message}`, callStack: [], diagnostics: [], ...(e.stack !== undefined ? { stack: e.stack } : {}) };
}

export function errorFromData(data: ErrorData): Error {
  if (data.kind === 'internal') {
    const e = new Error(`Starlark worker: ${data.msg}`);
    if (data.stack !== undefined) e.stack = data.stack;
    return e;
  }
  return new StarlarkError(data.kind, data.msg, [...data.callStack], [...data.diagnostics]);
}

/**
 * How a step's result is converted for the response: NaN and ±Infinity are refused (a 500 naming the
 * step, like json.encode) rather than becoming `null`, and the result's text is counted once per
 * reference against the string size limit (`maxBytes`), as its serialisation will be: a list holding
 * sixteen references to one 16 MiB string is a 256 MiB body, refused here.
 */
export function resultLimits(maxStringBytes: number): ConvertLimits {
  return { ...DEFAULT_CONVERT_LIMITS, finiteOnly: true, maxBytes: maxStringBytes };
}
