/**
 * The tracer in force in this process, read by every hook (src/http, src/steps, src/connectors):
 * `undefined` unless tracing is configured and its SDK loaded (start.ts). A hook's whole cost with
 * tracing off is reading this one module variable; nothing here loads OpenTelemetry, so a service
 * without tracing never does.
 *
 * The interfaces are svc's own, narrow on purpose: the hooks say what happened (a request arrived, a
 * step ran, a query was sent), spans.ts says it in OpenTelemetry's terms.
 */

/** One span, whatever its kind. */
export interface TraceSpan {
  /** 32 lower-case hex digits (W3C trace-id). */
  readonly traceId: string;
  /** 16 lower-case hex digits. */
  readonly spanId: string;
  /** Sampled: recorded and exported. An unsampled span still carries the ids its children continue. */
  readonly recording: boolean;
  set(key: string, value: string | number | boolean): void;
  rename(name: string): void;
  /** The error recorded on the span (an exception event and an error status). */
  fail(error: unknown, type?: string): void;
  end(): void;
}

/** Request headers as Node gives them: lower-case names. */
export type IncomingHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

export type ClientSystem = 'postgresql' | 'redis' | 'http';

export interface SvcTracer {
  /**
   * The server span of an incoming request, continuing its `traceparent`/`tracestate` when they are
   * valid. Named `METHOD` until the route is known (`named`).
   */
  request(method: string, scheme: string, path: string, headers: IncomingHeaders): TraceSpan;
  /** The request answered: its route template (when one matched), status and end. */
  answered(span: TraceSpan, status: number, route: string | undefined): void;
  /** A step's span, child of the request's. */
  step(parent: TraceSpan | undefined, kind: string, name: string): TraceSpan;
  /** `run` with `span` as the current step's: the client spans started during the call are its children. */
  within<T>(span: TraceSpan, run: () => T): T;
  /**
   * A client span (sql, redis, outbound http), child of the step running now (see `within`);
   * undefined outside a traced step (a readiness ping, a migration, a stream's live feed).
   */
  client(system: ClientSystem, name: string, attributes: Readonly<Record<string, string | number>>): TraceSpan | undefined;
  /** `traceparent` (and `tracestate`) of `span`, for an outbound request's headers. */
  propagate(span: TraceSpan, headers: Record<string, string>): void;
  /** A stream's span, child of the request's: from its head to its end. */
  stream(parent: TraceSpan, format: string): TraceSpan;
}

let active: SvcTracer | undefined;

/** The tracer, or undefined when tracing is off (the hooks' one check). */
export function activeTracer(): SvcTracer | undefined {
  return active;
}

/** Set by start.ts once the SDK is up; cleared by its shutdown. */
export function setActiveTracer(tracer: SvcTracer | undefined): void {
  active = tracer;
}

/**
 * Where the request's server span rides on `ctx` (the request context the handler builds, which every
 * step's scope holds), for the step spans to name their parent. Set only when tracing is on.
 */
export const REQUEST_SPAN: unique symbol = Symbol('svc.requestSpan');
