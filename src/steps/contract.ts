/**
 * The contract between a compiled endpoint and the HTTP adapter, on this side because src/steps may
 * not import src/http: `RequestContext` (the `ctx` of expressions), `EndpointScope`, and the answer,
 * synchronous when every step is (no promise, timer or abort controller per request) or a
 * `PendingResult` the adapter can cancel on time-out or client disconnect.
 */
import type { NodeDef, PulledSource, StreamEnd } from '../../graph/index.js';
import type { AuthContext, EndpointGuard } from '../auth/index.js';
import type { RedisHandle, SqlSession } from '../connectors/index.js';
import type { CorsModel, RateLimitModel, RepresentationModel } from '../model/index.js';
import type { RequestSpec } from '../schema/index.js';
import type { StreamEncoding } from '../stream/index.js';

/**
 * The scope every endpoint graph runs with; it is also the `vars` of expressions (`ctx`, `steps`),
 * so evaluating an expression allocates no variables object. A type alias, not an interface, so that
 * it is assignable to that record type.
 */
export type EndpointScope = {
  readonly steps: Record<string, unknown>;
  readonly ctx: RequestContext;
  /**
   * Inside a `transaction`: the one client its sql steps share (the container's `enter` derives a
   * scope with it; the same `steps` object, so outputs stay visible after the transaction).
   */
  readonly session?: SqlSession;
};

/** A graph node of an endpoint, as the step kinds' compilers produce them. */
export type EndpointNode = NodeDef<EndpointScope>;

/** The `ctx` object of expressions (SPEC.md §2.5, DECISIONS.md §2). */
export interface RequestContext {
  readonly request: {
    readonly method: string;
    readonly path: Readonly<Record<string, unknown>>;
    readonly query: Readonly<Record<string, unknown>>;
    /** Lower-case names. */
    readonly headers: Readonly<Record<string, unknown>>;
    readonly body: unknown;
  };
  readonly timestamp_epoch: number;
  readonly request_id: string;
  /** The guard that admitted the request and its principal; null on a public endpoint. */
  readonly auth?: AuthContext | null;
}

/** A response decided by the pipeline (a `respond` step, or a `catch`). */
export interface ResponseResult {
  readonly kind: 'response';
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** `null`/`undefined` sends no body. */
  readonly body: unknown;
  /** The body was built by `problem()`: sent as application/problem+json, `instance` filled in. */
  readonly problem: boolean;
  /** The body already serialized (constant bodies are serialized once at boot). */
  readonly json?: string;
}

/**
 * A step or expression failed: the adapter answers the problem of DECISIONS.md §3 and logs `error`.
 * The status is the adapter's to choose from the category (one mapping, in src/http/failure.ts).
 */
export interface FailureResult {
  readonly kind: 'failure';
  /**
   * The graph's category of the failure (`Category` of graph/errors.ts, or a classifier's such as
   * `dependency-unavailable`): a time-out is a 504, an unavailable dependency a 503, the rest 500.
   */
  readonly category: string;
  /** The failing step (`respond`, `starlark "score"`), named in the problem's `step` member. */
  readonly step?: string;
  /** Full detail for the log only; never sent to the client. */
  readonly error: unknown;
}

/**
 * A live stream decided by a `stream` step (SPEC.md §4.3): the adapter pulls `source` on demand into
 * `encoding`'s encoder and calls `dispose` exactly once when the stream is over, whatever happened
 * (that releases the cursor, subscription or upstream body behind it).
 */
export interface StreamResult {
  readonly kind: 'stream';
  /** The `stream` step, for the log line and a failure's problem. */
  readonly step: string;
  readonly source: PulledSource;
  /** Items arrive when published (a subscription): the response starts before the first item. */
  readonly live: boolean;
  readonly encoding: StreamEncoding;
  /** The step's `headers`, checked. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** The category of a failure of the source (a connector's, else `internal`), for its status. */
  categoryOf(error: unknown): string;
  dispose(end: StreamEnd, error?: unknown): void;
}

export type EndpointResult = ResponseResult | FailureResult | StreamResult;

/**
 * A run that entered the event loop (real I/O). Delivered through a receiver rather than a Promise:
 * the adapter's wait is then one object per request, with no promise, `then` closures or extra
 * microtask between the last step and the response.
 */
export interface PendingResult {
  readonly kind: 'pending';
  /**
   * Starts following the run: `receiver.settle` is called once with its result (possibly before
   * `follow` returns), never after `cancel`. Called at most once.
   */
  follow(receiver: ResultReceiver): void;
  /** Tears the running graph down (steps release their resources); nothing is delivered after it. */
  cancel(): void;
}

export interface ResultReceiver {
  settle(result: EndpointResult): void;
}

/** A rate limit and where it is counted (docs/rate-limits.md; src/http/rate-limit.ts counts it). */
export interface EndpointRateLimit {
  readonly limit: RateLimitModel;
  /** `server.rate_limit.connection`: the redis connection counters are kept in; absent means in the process. */
  readonly store?: RedisHandle;
}

export interface CompiledEndpoint {
  readonly method: string;
  /** The manifest path, `{name}` and `{name...}` placeholders included. */
  readonly path: string;
  /** What the endpoint declares about its request, validated before the pipeline runs. */
  readonly request: RequestSpec;
  /** The endpoint's guards (src/auth), checked before the body is read; absent on a public endpoint. */
  readonly guard?: EndpointGuard;
  /** The endpoint's rate limit, counted before the body is read; absent when it is not limited. */
  readonly rateLimit?: EndpointRateLimit;
  /** The endpoint's cross-origin policy (src/http/cors.ts); absent: no CORS headers. */
  readonly cors?: CorsModel;
  /** Compression, ETag and Cache-Control of its answers (src/http/compress.ts, conditional.ts); absent: none. */
  readonly representation?: RepresentationModel;
  run(ctx: RequestContext): EndpointResult | PendingResult;
}
