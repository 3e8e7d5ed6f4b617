/**
 * Outbound HTTP failures -> connector categories: whatever undici or the socket reports becomes a
 * ConnectorError naming the upstream, so the graph's classifier (../classify.ts) needs nothing
 * of this kind. An upstream's own 4xx/5xx answer is not an error at all: it is the step's data.
 */
import { ConnectorCategory, ConnectorError, describeCause, type ConnectorCategoryName } from '../errors.js';

/** Connection-level failures: the upstream was not there, went away or spoke broken HTTP: 502. */
const BAD_GATEWAY_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_INFO',
  'UND_ERR_HEADERS_OVERFLOW',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/** Waits undici bounds itself (connect, headers, idle body): 504 like the step's own time-out. */
const TIMEOUT_CODES: ReadonlySet<string> = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** The client was closed under the request: only during shutdown, after the drain. */
const CLOSED_CODES: ReadonlySet<string> = new Set(['UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);

/** The category of a driver or socket error, or undefined (a 500: a bug or a bad argument). */
export function classifyUpstream(cause: unknown): ConnectorCategoryName | undefined {
  const code = codeOf(cause);
  if (code === undefined) return undefined;
  if (BAD_GATEWAY_CODES.has(code) || code.startsWith('HPE_')) return ConnectorCategory.badGateway;
  if (TIMEOUT_CODES.has(code)) return ConnectorCategory.timeout;
  if (CLOSED_CODES.has(code)) return ConnectorCategory.unavailable;
  return undefined;
}

/** `code` of the error, else of the first of an AggregateError (every address of a host refused). */
function codeOf(cause: unknown): string | undefined {
  if (typeof cause !== 'object' || cause === null) return undefined;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  if (cause instanceof AggregateError && cause.errors.length > 0) return codeOf(cause.errors[0]);
  return undefined;
}

/** What names an upstream in a ConnectorError: `http <origin>`, the way `<kind>.<name>` names a connection. */
export function upstreamKey(origin: string): string {
  return `http ${origin}`;
}

/** A failure of the exchange `what` (`GET http://host/path`) as a ConnectorError with its category. */
export function upstreamError(cause: unknown, origin: string, what: () => string): ConnectorError {
  if (cause instanceof ConnectorError) return cause;
  return new ConnectorError(`upstream ${what()} failed: ${describeCause(cause)}`, {
    connection: upstreamKey(origin),
    category: classifyUpstream(cause),
    cause,
  });
}

/** A response the step cannot accept (a body over its limit, invalid JSON): 502. */
export function badResponse(origin: string, what: () => string, message: string, cause?: unknown): ConnectorError {
  return new ConnectorError(`upstream ${what()}: ${message}`, { connection: upstreamKey(origin), category: ConnectorCategory.badGateway, cause });
}
