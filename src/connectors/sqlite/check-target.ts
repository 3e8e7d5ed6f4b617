/**
 * The file a `svc check --database name=sqlite:...` URL names (./check-database.ts), and why it
 * cannot be checked: read before anything is opened, so the command line's mistake is a usage error.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

const MEMORY = 'sqlite::memory:';

/** The file of a `sqlite:` URL (relative to the working directory), undefined for memory. */
export function sqliteCheckFile(url: string): string | undefined {
  let path = url.slice('sqlite:'.length);
  if (url === MEMORY || path === '') return undefined;
  if (path.startsWith('///')) path = path.slice(2);
  return isAbsolute(path) ? path : resolve(path);
}

/** Why a `sqlite:` URL cannot be checked (it names no existing file), or undefined. */
export function sqliteUncheckable(url: string): string | undefined {
  const file = sqliteCheckFile(url);
  if (file === undefined) return undefined;
  if (!existsSync(file))
    return `${file} does not exist (the check opens an existing database and never creates one; sqlite::memory: builds one from the migrations)`;
  if (!statSync(file).isFile()) return `${file} is not a file`;
  return undefined;
}
