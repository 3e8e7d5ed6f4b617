/**
 * Where a sqlite connection points: `sqlite::memory:` (a database in this process, gone at exit) or
 * `sqlite:<path>` (a file, relative to the declaring file's directory, created when missing).
 * `sqlite:///abs/path` is accepted as the absolute path it spells.
 */
import { isAbsolute, resolve } from 'node:path';
import type { ConnectionModel } from '../../model/index.js';

export type SqliteTarget = { readonly type: 'memory' } | { readonly type: 'file'; readonly path: string };

const SCHEME = 'sqlite:';
const MEMORY = ':memory:';

export function sqliteTargetOf(connection: ConnectionModel): SqliteTarget {
  let path = connection.url.slice(SCHEME.length);
  if (path === MEMORY || path === '') return { type: 'memory' };
  if (path.startsWith('///')) path = path.slice(2);
  return { type: 'file', path: isAbsolute(path) ? path : resolve(connection.baseDir, path) };
}

/** The URL for logs and errors: the file's absolute path, or memory spelled out. */
export function describeSqliteTarget(target: SqliteTarget): string {
  return target.type === 'memory' ? 'sqlite::memory: (in memory)' : `sqlite:${target.path}`;
}
