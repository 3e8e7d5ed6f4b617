/**
 * Redis failures -> connector categories (../errors.ts). Three sources: the server's error replies
 * (`ERR ...`, `WRONGTYPE ...`, `LOADING ...`), Node's socket errors (an errno in `code`), and
 * ioredis' own errors for a connection that is gone. The memory store raises the same reply errors
 * (StoreReplyError) with the same texts, so both stores fail alike.
 */
import { ConnectorCategory, ConnectorError, describeCause, type ConnectorCategoryName } from '../errors.js';

/** Socket errors: the server is not there, or went away. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ECONNABORTED']);

/** Error replies that say the server cannot serve now (still loading its data, a replica without its master, busy with a script). */
const UNAVAILABLE_REPLIES = new Set(['LOADING', 'MASTERDOWN', 'BUSY', 'TRYAGAIN', 'CLUSTERDOWN']);

/**
 * ioredis' own errors carry no code; their names and messages are stable across v4-v6: the
 * pending commands flushed when a connection closes (maxRetriesPerRequest), a client that was
 * closed, a command refused while offline, an in-flight command aborted by the close.
 */
const UNAVAILABLE_NAMES = new Set(['MaxRetriesPerRequestError']);
const UNAVAILABLE_MESSAGES = [
  'Connection is closed',
  "Stream isn't writeable",
  'Command aborted due to connection close',
  'Reached the max retries per request limit',
];

/** A server error reply, raised by the memory store with the text Redis would send. */
export class StoreReplyError extends Error {
  override readonly name = 'ReplyError';
}

/** The reply's error prefix (`ERR`, `WRONGTYPE`), for `ConnectorError.code`. */
export function replyCodeOf(cause: unknown): string | undefined {
  if (!(cause instanceof Error) || cause.name !== 'ReplyError') return undefined;
  const match = /^([A-Z][A-Z_]*)\b/.exec(cause.message);
  return match?.[1];
}

export function classifyRedisError(cause: unknown): ConnectorCategoryName | undefined {
  if (cause instanceof ConnectorError) return cause.category;
  if (!(cause instanceof Error)) return undefined;
  const reply = replyCodeOf(cause);
  if (reply !== undefined) return UNAVAILABLE_REPLIES.has(reply) ? ConnectorCategory.unavailable : undefined;
  const errno = (cause as NodeJS.ErrnoException).code;
  if (typeof errno === 'string' && NETWORK_CODES.has(errno)) return ConnectorCategory.unavailable;
  if (UNAVAILABLE_NAMES.has(cause.name)) return ConnectorCategory.unavailable;
  if (UNAVAILABLE_MESSAGES.some((m) => cause.message.startsWith(m))) return ConnectorCategory.unavailable;
  if (cause.message === 'Command timed out') return ConnectorCategory.timeout;
  return undefined;
}

/** A store failure as the ConnectorError a handle throws, naming the connection. */
export function toConnectorError(cause: unknown, key: string, label: string): ConnectorError {
  if (cause instanceof ConnectorError) return cause;
  return new ConnectorError(`${label}: ${describeCause(cause)}`, {
    connection: key,
    category: classifyRedisError(cause),
    code: replyCodeOf(cause),
    cause,
  });
}

/** The connection is known to be down: a command fails at once instead of waiting (docs/redis.md). */
export function unavailable(key: string, label: string, why: string, cause?: unknown): ConnectorError {
  return new ConnectorError(`${label}: ${why}`, { connection: key, category: ConnectorCategory.unavailable, cause });
}
