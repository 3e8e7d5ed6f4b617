import type { Observable } from 'rxjs/internal/Observable';
import type { StepError } from './errors.js';
import type { Classifier } from './info.js';
import type { PulledSource, StreamEnd } from './stream.js';

/**
 * The per-request scope a graph runs against. The engine only ever writes `steps[name]`; everything
 * else (request data, a transaction client...) belongs to the caller and is opaque here.
 */
export interface GraphScope {
  readonly steps: Record<string, unknown>;
}

/**
 * Passed to every `run` (and to a container's `enter`/`leave`): this node's own view of the run's
 * cancellation, so a step's signal and releases end with that step (graph/README.md "The node's
 * context"). A node's life ends exactly once, at the first of: its own failure or time-out, *before*
 * the error travels on (a transaction never rolls back under a live query); its teardown while
 * pending; the end of the region it ran in (the container's body, before `leave`; else the run,
 * or a stream outcome's subscription, since a stream may read what earlier steps opened).
 * A container's own context ends after its `leave` has settled.
 */
export interface RunContext {
  /**
   * Aborted when this node's life ends (see above), with the failure, the external abort reason or
   * a RunAbortedError as `reason`. Created on first read: an AbortController costs ten times a whole
   * synchronous run (graph/README.md "Measurements"), so only steps doing real I/O should read it.
   * Read after the node's life ended, it is already aborted.
   */
  readonly signal: AbortSignal;
  /**
   * Registers `release` to run exactly once when this node's life ends, whatever ends it (success,
   * error, time-out, teardown, early exit), after `signal` is aborted; releases run last registered
   * first. `reason` is undefined when the life ended normally, else why it did (a StepError, a
   * StepTimeoutError, a RunAbortedError or the external abort reason), so a pooled client can be
   * destroyed rather than returned when a query may still be running. A release that throws or
   * rejects is reported to `GraphCompileOptions.onTeardownError` and never fails the run.
   * Registered after the life ended, it runs at once.
   */
  onRelease(release: Release): void;
}

/** See `RunContext.onRelease`; its value, if a Promise, is watched for a rejection only. */
export type Release = (reason: unknown) => unknown;

/**
 * What a step's `run` may return. A plain value is the output, taken synchronously (no event-loop
 * hop). A Promise or an Observable is awaited: the first value is the output (an Observable is
 * unsubscribed after it), and one that completes without a value is an error, never a silent gap.
 * To output a Promise or an Observable *as the value*, wrap it with `asValue()` (or put it in an
 * object, as in `{ stream: rows$ }`).
 */
export type StepResult<T = unknown> = T | PromiseLike<T> | Observable<T>;

interface NodeCommon {
  /** Unique id used in errors and DOT; defaults to `name`, else a generated `<kind>#<n>`. */
  readonly id?: string;
  /** Free text for DOT (e.g. a one-line summary of the step); never used for behaviour. */
  readonly label?: string;
  /** Names of earlier steps whose outputs this node reads: the data edges. Checked at compile time. */
  readonly reads?: readonly string[];
  /** Caller data carried through untouched (e.g. a source range to turn errors into diagnostics). */
  readonly meta?: unknown;
  /** Per-node error classification, tried before the graph-wide one. */
  readonly classify?: Classifier;
}

/** A plain step: runs, and its output is stored as `scope.steps[name]`. */
export interface StepNodeDef<S extends GraphScope = GraphScope> extends NodeCommon {
  readonly type: 'step';
  readonly name: string;
  readonly kind: string;
  /** Milliseconds before an asynchronous result is abandoned with a StepTimeoutError. */
  readonly timeout?: number;
  /**
   * May return `exitWith(payload)` to end the run with an exit outcome instead of an output
   * (how a `catch` block turns a database error into a declared response).
   */
  run(scope: S, ctx: RunContext): StepResult;
  /**
   * The step's own failure (an error, its time-out) becomes its output instead of failing the run,
   * and its output on success may be marked so (a manifest's `on_error = "continue"`). A teardown
   * (the run cancelled, a failing parallel sibling) still ends the run.
   */
  readonly continueOnError?: ContinueOnError;
}

/** See `StepNodeDef.continueOnError`. */
export interface ContinueOnError {
  /** The output stored in place of the failure. */
  failed(error: StepError): unknown;
  /** The output stored in place of a successful one. */
  succeeded(output: unknown): unknown;
}

/**
 * An early exit (`respond`). Without `condition` it always ends the run; with one, it ends the run
 * when the condition is true and is skipped when false. `run` computes the opaque exit payload.
 */
export interface ExitNodeDef<S extends GraphScope = GraphScope> extends NodeCommon {
  readonly type: 'exit';
  readonly name?: string;
  /** Defaults to 'respond'. */
  readonly kind?: string;
  /** Synchronous on purpose: conditions are expressions, and they decide control flow. */
  readonly condition?: (scope: S) => boolean;
  readonly timeout?: number;
  run(scope: S, ctx: RunContext): StepResult;
}

/** What a sink's run produces: the pulled source and an opaque payload (format, headers...). */
export interface SinkResult {
  readonly source: PulledSource;
  readonly payload?: unknown;
}

/**
 * A sink (`stream`): ends the run with a stream outcome whose `source` the HTTP layer pulls from.
 * With `condition` (the `when` guard) false it is skipped.
 */
export interface SinkNodeDef<S extends GraphScope = GraphScope> extends NodeCommon {
  readonly type: 'sink';
  readonly name?: string;
  /** Defaults to 'stream'. */
  readonly kind?: string;
  readonly condition?: (scope: S) => boolean;
  readonly timeout?: number;
  run(scope: S, ctx: RunContext): StepResult<SinkResult>;
}

/** A branch of a parallel group: one node, or a sub-sequence run in order. */
export type Branch<S extends GraphScope = GraphScope> = NodeDef<S> | readonly NodeDef<S>[];

/** Runs its branches concurrently (forkJoin); all outputs are available after it. */
export interface ParallelNodeDef<S extends GraphScope = GraphScope> extends NodeCommon {
  readonly type: 'parallel';
  readonly name?: string;
  /** Defaults to 'parallel'. */
  readonly kind?: string;
  readonly branches: readonly Branch<S>[];
}

/** How a container's body ended, as told to `ScopeWrapper.leave`. */
export type Ending =
  | { readonly kind: 'done' }
  | { readonly kind: 'exit'; readonly outcome: ExitOutcome }
  /**
   * The body ended with a stream; told when the stream is disposed: `complete` (every item was
   * delivered), `error` (the source failed, `error` holds why) or `cancel` (the consumer went away,
   * or the stream was never read and the run ended).
   */
  | {
      readonly kind: 'stream';
      readonly outcome: StreamOutcome;
      readonly end: StreamEnd;
      readonly error?: unknown;
    }
  | { readonly kind: 'error'; readonly error: StepError }
  | { readonly kind: 'cancel' };

/**
 * The hook a container wraps its body with (a transaction: acquire a client, commit, roll back).
 * - `enter(scope)` returns the scope the body runs with: the same object or a derived one sharing
 *   `steps` (inner outputs stay addressable as `steps.<inner>` after the container).
 * - `leave(inner, ending)` runs exactly once after `enter` succeeded. On 'done', 'exit', 'error' it
 *   is awaited: it may return `exitWith(payload)` (a caught constraint error), its output on 'done' is
 *   the container's, its failure the container's. On 'stream' (at dispose) and 'cancel' nobody
 *   awaits it: failures go to `CompileOptions.onTeardownError`.
 */
export interface ScopeWrapper<S extends GraphScope = GraphScope> {
  enter?(scope: S, ctx: RunContext): StepResult<S>;
  leave?(scope: S, ending: Ending, ctx: RunContext): StepResult;
}

/** A node with its own sub-sequence, wrapped by a `ScopeWrapper` (e.g. `transaction`). */
export interface ContainerNodeDef<S extends GraphScope = GraphScope> extends NodeCommon {
  readonly type: 'container';
  readonly name?: string;
  readonly kind: string;
  readonly body: readonly NodeDef<S>[];
  readonly wrap: ScopeWrapper<S>;
}

export type NodeDef<S extends GraphScope = GraphScope> = StepNodeDef<S> | ExitNodeDef<S> | SinkNodeDef<S> | ParallelNodeDef<S> | ContainerNodeDef<S>;

/** An endpoint's pipeline: its top-level sequence. */
export interface GraphDef<S extends GraphScope = GraphScope> {
  readonly nodes: readonly NodeDef<S>[];
}

/** Options of `compileGraph` (named apart from the CompileOptions of src/expr and src/starlark). */
export interface GraphCompileOptions {
  /**
   * Graph-wide classification of failures (typically driver errors: a refused connection to
   * 'dependency-unavailable', a unique violation to 'conflict'), tried after the node's own
   * `classify`, and the only one for failures outside any step (GRAPH_STEP_ID). Default category:
   * 'internal'. A classifier that throws counts as undefined.
   */
  readonly classify?: Classifier;
  /** Report a run that can finish without an exit or stream as a 'no-response' error. */
  readonly requireOutcome?: boolean;
  /**
   * Failures nobody awaits, as StepErrors naming their node and classified like any other: a
   * release (`RunContext.onRelease`) that throws or rejects, a `leave` on 'cancel' or 'stream'.
   * Wire it to the logger so a failed release is never silent. Default: ignored. A hook that
   * throws is ignored too (it runs in teardown paths where nobody could catch it).
   */
  readonly onTeardownError?: (error: StepError) => void;
}

// ---------------------------------------------------------------------------------------------
// Outcomes

export interface ExitOutcome {
  readonly kind: 'exit';
  /** Id of the node that exited. */
  readonly step: string;
  readonly payload: unknown;
}

export interface StreamOutcome {
  readonly kind: 'stream';
  readonly step: string;
  readonly payload: unknown;
  /** The source, pulled on demand by the consumer (read it once). */
  readonly source: PulledSource;
  /**
   * Ends the stream's life: aborts the run's signals and releases everything the run still holds
   * (the cursor, subscription or upstream body behind the source). Whoever receives the outcome
   * calls it exactly once when the stream is over, whatever happened, including "never read";
   * later calls are no-ops.
   */
  dispose(end: StreamEnd, error?: unknown): void;
}

export interface ErrorOutcome {
  readonly kind: 'error';
  readonly error: StepError;
}

/** The run finished without exit or stream; boot checks should make this impossible. */
export interface DoneOutcome {
  readonly kind: 'done';
}

export type Outcome = ExitOutcome | StreamOutcome | ErrorOutcome | DoneOutcome;

// ---------------------------------------------------------------------------------------------
// Compiled graph

/** The compiled structure, for introspection and DOT. Immutable. */
export interface PlanNode {
  readonly id: string;
  readonly type: NodeDef['type'];
  readonly kind: string;
  readonly name: string | undefined;
  readonly label: string | undefined;
  readonly reads: readonly string[];
  /** An exit or sink with a condition (may be skipped). */
  readonly conditional: boolean;
  /** Always ends the run when reached (unconditional exit or sink). */
  readonly terminal: boolean;
  readonly timeout: number | undefined;
  /** parallel: one sub-sequence per branch. */
  readonly branches?: readonly (readonly PlanNode[])[];
  /** container: its body. */
  readonly body?: readonly PlanNode[];
  readonly meta: unknown;
}

export interface CompiledGraph<S extends GraphScope = GraphScope> {
  readonly plan: readonly PlanNode[];
  /** True when some path ends without exit or stream (the run would give `{kind: 'done'}`). */
  readonly mayFinishWithoutOutcome: boolean;
  /** Cold: every subscription is a new run; unsubscribing cancels it. Emits one outcome. */
  run(scope: S, signal?: AbortSignal): Observable<Outcome>;
  /**
   * The fast path: runs synchronously as far as it can. Returns the Outcome itself when the whole
   * run was synchronous, else an Observable of it that must be subscribed (once) to continue;
   * unsubscribing it cancels the run. Work already started (promises) is aborted via the signal.
   */
  start(scope: S, signal?: AbortSignal): Outcome | Observable<Outcome>;
  /** Promise variant of `start` (one microtask hop when synchronous). */
  runPromise(scope: S, signal?: AbortSignal): Promise<Outcome>;
}

/** Structured compile-time error; the caller turns it into a manifest diagnostic via `ids`. */
export interface GraphError {
  readonly code: GraphErrorCode;
  readonly message: string;
  /** Ids of the nodes concerned (for a cycle: in cycle order). */
  readonly ids: readonly string[];
  /** For read errors: the name that was read. */
  readonly target?: string;
}

export type GraphErrorCode =
  | 'missing-name'
  | 'duplicate-name'
  | 'unknown-read'
  | 'read-before-run'
  | 'read-parallel-sibling'
  | 'cycle'
  | 'empty-parallel'
  | 'terminal-in-parallel'
  | 'unreachable'
  | 'invalid-timeout'
  | 'no-response';

export type CompileResult<S extends GraphScope = GraphScope> =
  | { readonly ok: true; readonly graph: CompiledGraph<S>; readonly errors: readonly [] }
  | { readonly ok: false; readonly graph: undefined; readonly errors: readonly GraphError[] };
