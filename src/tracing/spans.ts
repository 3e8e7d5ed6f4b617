/**
 * svc's tracer (active.ts `SvcTracer`) in OpenTelemetry's terms: span kinds, the HTTP and database
 * semantic conventions, W3C trace context in and out. Loaded only with the SDK (sdk.ts).
 *
 * Attribute names are the stable semantic conventions (HTTP server and client, database); the step
 * and stream attributes are svc's own, under `svc.`.
 */
import { type Context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, type TextMapGetter, trace, type Tracer } from '@opentelemetry/api';
import {
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_EXCEPTION_MESSAGE,
  ATTR_EXCEPTION_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
} from '@opentelemetry/semantic-conventions';
import type { ClientSystem, IncomingHeaders, SvcTracer, TraceSpan } from './active.js';

/** Request headers as the propagator reads them (lower-case names, as Node gives them). */
const HEADERS: TextMapGetter<IncomingHeaders> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : value?.[0];
  },
};

/**
 * Now, in epoch milliseconds with a fraction (microseconds and below), from the monotonic clock.
 * Every start, end and event time is taken here: the SDK's own clock anchors each span it cannot tie
 * to a local parent on `Date.now()`, whole milliseconds, so a child could start "before" its
 * parent or end "after" it by up to a millisecond.
 */
function now(): number {
  return performance.timeOrigin + performance.now();
}

/** A span with the context that makes it the parent of what starts inside it. */
class OtelSpan implements TraceSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly recording: boolean;
  /** The span's first name: a server span's method, which its final name starts with. */
  readonly firstName: string;
  private readonly span: Span;
  private readonly parent: Context;
  private own: Context | undefined;
  private failed = false;

  constructor(span: Span, name: string, parent: Context) {
    const ids = span.spanContext();
    this.span = span;
    this.firstName = name;
    this.parent = parent;
    this.traceId = ids.traceId;
    this.spanId = ids.spanId;
    this.recording = span.isRecording();
  }

  /** The context with this span in it, made when first asked: most spans (a statement's) are never parents. */
  get context(): Context {
    return (this.own ??= trace.setSpan(this.parent, this.span));
  }

  set(key: string, value: string | number | boolean): void {
    this.span.setAttribute(key, value);
  }

  rename(name: string): void {
    this.span.updateName(name);
  }

  fail(error: unknown, type?: string): void {
    if (!this.recording) return;
    const message = error instanceof Error ? error.message : String(error);
    // The exception event carries the message and the class, not the stack: svc's stacks name its own
    // files, which the client never sees either (the log line has them).
    this.span.addEvent(
      'exception',
      {
        [ATTR_EXCEPTION_TYPE]: error instanceof Error ? error.name : typeof error,
        [ATTR_EXCEPTION_MESSAGE]: message,
      },
      now(),
    );
    this.span.setAttribute(ATTR_ERROR_TYPE, type ?? (error instanceof Error ? error.name : 'error'));
    this.span.setStatus({ code: SpanStatusCode.ERROR, message });
    this.failed = true;
  }

  /** A 5xx answer: an error status; `error.type` is the status unless a recorded error named it. */
  serverError(status: number): void {
    if (!this.failed) this.span.setAttribute(ATTR_ERROR_TYPE, String(status));
    this.span.setStatus({ code: SpanStatusCode.ERROR });
  }

  end(): void {
    this.span.end(now());
  }
}

export function createSvcTracer(tracer: Tracer): SvcTracer {
  /**
   * The span of the step whose `run` is executing now, set and restored around it (`within`): the
   * parent of the client spans its connector calls start. Every step kind calls its connector
   * synchronously from `run` (sql, redis, http: the call that sends is made before any await), so
   * a slot is enough; no async context (AsyncLocalStorage and its promise hooks, which tax every
   * promise of the process) is needed.
   */
  let current: OtelSpan | undefined;
  return {
    request(method, scheme, path, headers) {
      const parent = propagation.extract(ROOT_CONTEXT, headers, HEADERS);
      const span = tracer.startSpan(
        method,
        { kind: SpanKind.SERVER, startTime: now(), attributes: { [ATTR_HTTP_REQUEST_METHOD]: method, [ATTR_URL_SCHEME]: scheme, [ATTR_URL_PATH]: path } },
        parent,
      );
      return new OtelSpan(span, method, parent);
    },
    answered(traced, status, route) {
      const span = traced as OtelSpan;
      if (span.recording) {
        span.set(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
        if (route !== undefined) {
          span.set(ATTR_HTTP_ROUTE, route);
          // `{method} {route}`: the conventions' name, low in cardinality (the template, not the path).
          span.rename(`${span.firstName} ${route}`);
        }
        // A server span is an error for 5xx only: a 4xx is the client's mistake, answered as it should be.
        if (status >= 500) span.serverError(status);
      }
      span.end();
    },
    step(parent, kind, name) {
      const base = parent === undefined ? ROOT_CONTEXT : (parent as OtelSpan).context;
      const spanName = `${kind} ${name}`;
      const span = tracer.startSpan(
        spanName,
        { kind: SpanKind.INTERNAL, startTime: now(), attributes: { 'svc.step.kind': kind, 'svc.step.name': name } },
        base,
      );
      return new OtelSpan(span, spanName, base);
    },
    within(span, run) {
      const outer = current;
      current = span as OtelSpan;
      try {
        return run();
      } finally {
        current = outer;
      }
    },
    client(system: ClientSystem, name, attributes) {
      // Only inside a traced step: a readiness ping or a migration is no one's child.
      if (current === undefined) return undefined;
      const base = current.context;
      const span = tracer.startSpan(
        name,
        { kind: SpanKind.CLIENT, startTime: now(), attributes: system === 'http' ? attributes : { [ATTR_DB_SYSTEM_NAME]: system, ...attributes } },
        base,
      );
      return new OtelSpan(span, name, base);
    },
    propagate(span, headers) {
      propagation.inject((span as OtelSpan).context, headers);
    },
    stream(parent, format) {
      const base = (parent as OtelSpan).context;
      const spanName = `stream ${format}`;
      const span = tracer.startSpan(spanName, { kind: SpanKind.INTERNAL, startTime: now(), attributes: { 'svc.stream.format': format } }, base);
      return new OtelSpan(span, spanName, base);
    },
  };
}
