/**
 * Whether this Node.js can run `connection "sqlite"`: node:sqlite built in and unflagged (from
 * Node.js 22.13 and 23.4) with `StatementSync.columns()` (22.16 and 23.11), which the connector
 * reads each statement's columns with. Asked without loading the module (`isBuiltin` answers false
 * under `--no-experimental-sqlite`), so a manifest check prints nothing of the engine's own.
 */
import { isBuiltin } from 'node:module';

/** The first releases svc's SQLite connections run on, as users read them. */
export const SQLITE_NODE_VERSIONS = 'Node.js 22.16 or later (23.11 or later on the 23 line)';

/** Why this process cannot open a sqlite connection, or undefined when it can. */
export function sqliteUnavailableReason(version: string = process.versions.node, builtin: boolean = isBuiltin('node:sqlite')): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const recentEnough = major > 23 || (major === 23 && minor >= 11) || (major === 22 && minor >= 16);
  if (!recentEnough) return `SQLite connections run on node:sqlite, built into ${SQLITE_NODE_VERSIONS}; this is Node.js ${version}.`;
  if (!builtin) return `node:sqlite is turned off in this process (--no-experimental-sqlite); remove that flag.`;
  return undefined;
}
