/**
 * Where a postgres connection points (DECISIONS.md §1): a server (`postgres://`, `postgresql://`) or
 * the embedded PGlite engine, in memory (`pglite:`) or persistent in a directory (`pglite:<dir>`,
 * relative to the declaring file's directory).
 */
import { isAbsolute, resolve } from 'node:path';
import type { ConnectionModel } from '../../model/index.js';
import { redactUrl } from '../redact.js';

export type PostgresTarget = { readonly type: 'server'; readonly url: string } | { readonly type: 'pglite' /** absent: in memory */; readonly dir?: string };

const PGLITE = 'pglite:';

export function targetOf(connection: ConnectionModel): PostgresTarget {
  const { url } = connection;
  if (!url.startsWith(PGLITE)) return { type: 'server', url };
  const path = url.slice(PGLITE.length);
  if (path === '' || path === 'memory://') return { type: 'pglite' };
  return { type: 'pglite', dir: isAbsolute(path) ? path : resolve(connection.baseDir, path) };
}

/** The URL for logs and errors. */
export function describeTarget(target: PostgresTarget): string {
  if (target.type === 'server') return redactUrl(target.url);
  return target.dir === undefined ? 'pglite: (in memory)' : `pglite:${target.dir}`;
}

/** Whether `url` names a database `svc check --database` opens: a server, or PGlite in memory (./check-database.ts). */
export function checkableDatabaseUrl(url: string): boolean {
  if (url === PGLITE || url === `${PGLITE}memory://`) return true;
  return /^postgres(?:ql)?:\/\//.test(url);
}
