/**
 * Whether this Node.js has node:sqlite, which `connection "sqlite"` runs on: built in, unflagged,
 * from Node.js 22.13 (and 23.4); from 22.5 behind `--experimental-sqlite`; absent before. Asked
 * without loading the module (`isBuiltin` answers false when the flag is missing or
 * `--no-experimental-sqlite` is given), so a manifest check prints nothing of the engine's own.
 */
import { isBuiltin } from 'node:module';

/** The first releases with node:sqlite unflagged, as users read them. */
export const SQLITE_NODE_VERSIONS = 'Node.js 22.13 or later (22.5 to 22.12 with --experimental-sqlite)';

/** Why this process cannot open a sqlite connection, or undefined when it can. */
export function sqliteUnavailableReason(version: string = process.versions.node, builtin: boolean = isBuiltin('node:sqlite')): string | undefined {
  if (builtin) return undefined;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const flagged = (major === 22 && minor >= 5 && minor < 13) || (major === 23 && minor < 4);
  if (flagged) {
    return `node:sqlite is behind a flag on Node.js ${version}: start svc with node --experimental-sqlite (or NODE_OPTIONS=--experimental-sqlite), or use Node.js 22.13 or later.`;
  }
  if (major >= 22) return `node:sqlite is turned off in this process (--no-experimental-sqlite); remove that flag.`;
  return `SQLite connections run on node:sqlite, built into ${SQLITE_NODE_VERSIONS}; this is Node.js ${version}.`;
}
