/**
 * Where a redis connection points (DECISIONS.md §1): a server (`redis://host:port/db`, or
 * `rediss://` over TLS; ioredis reads user, password and database from the URL) or the embedded
 * in-process store (`memory:`).
 */
import type { ConnectionModel } from '../../model/index.js';
import { redactUrl } from '../redact.js';

export type RedisTarget = { readonly type: 'server'; readonly url: string } | { readonly type: 'memory' };

export function targetOf(connection: ConnectionModel): RedisTarget {
  return connection.url.startsWith('memory:') ? { type: 'memory' } : { type: 'server', url: connection.url };
}

/** The URL for logs and errors. */
export function describeTarget(target: RedisTarget): string {
  return target.type === 'server' ? redactUrl(target.url) : 'memory: (in process)';
}
