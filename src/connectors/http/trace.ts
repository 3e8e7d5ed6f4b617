/**
 * An outbound exchange's client span (docs/operations.md "Tracing"): HTTP client semantic conventions (method,
 * `server.address`, `server.port`, `url.full` without query or userinfo, where API keys and passwords
 * travel, the status), and the upstream gets `traceparent` (and `tracestate`) naming this span as
 * its parent. Only inside a traced step (src/tracing `client` answers undefined elsewhere).
 */
import { activeTracer, type TraceSpan } from '../../tracing/index.js';
import { ConnectorError } from '../errors.js';

/** The exchange's span, or undefined when tracing is off or no traced step sent it. */
export function startExchangeSpan(method: string, target: URL): TraceSpan | undefined {
  const tracer = activeTracer();
  if (tracer === undefined) return undefined;
  const port = target.port !== '' ? Number(target.port) : target.protocol === 'https:' ? 443 : 80;
  return tracer.client('http', method, {
    'http.request.method': method,
    'server.address': target.hostname,
    'server.port': port,
    'url.full': `${target.origin}${target.pathname}`,
  });
}

/** `headers` (as undici gets them) with the span's trace context added. */
export function propagateTo(span: TraceSpan, headers: Record<string, string | string[]>): void {
  const context: Record<string, string> = {};
  activeTracer()?.propagate(span, context);
  // The exchange's own context replaces any a caller passed on from its request.
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'traceparent' || lower === 'tracestate') delete headers[name];
  }
  Object.assign(headers, context);
}

/** The response's status (an error from 400 on, as the conventions say of a client span), or the failure. */
export function endExchangeSpan(span: TraceSpan, status: number | undefined, error: unknown): void {
  if (error !== undefined) span.fail(error, error instanceof ConnectorError ? (error.category ?? 'error') : 'error');
  else if (status !== undefined) {
    span.set('http.response.status_code', status);
    if (status >= 400) span.fail(new Error(`upstream answered ${status}`), String(status));
  }
  span.end();
}
