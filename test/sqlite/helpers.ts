/**
 * Shared by the sqlite tests: whether this Node.js has node:sqlite (every test file skips with the
 * reason when it does not: Node.js 20, the machines' own, runs them skipped; scripts/node-lines.sh
 * runs them on 22, 24 and 26), connection models built by hand, and a fresh directory per test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnectors, type ConnectorSet } from '../../src/connectors/index.js';
import { sqliteUnavailableReason } from '../../src/manifest/sqlite-support.js';
import type { ConnectionModel } from '../../src/model/index.js';

/** The reason to skip, or undefined where node:sqlite is there. */
export const NO_SQLITE: string | undefined = sqliteUnavailableReason();

/** `{ skip }` for node:test: skipped with the reason on a Node.js without node:sqlite. */
export const SQLITE_ONLY: { skip?: string } = NO_SQLITE === undefined ? {} : { skip: NO_SQLITE };

export interface SqliteOptions {
  readonly name?: string;
  readonly migrations?: string;
  readonly busyTimeoutMs?: number;
  readonly baseDir?: string;
}

export function sqliteConnection(url: string, options: SqliteOptions = {}): ConnectionModel {
  const position = { line: 1, column: 1, byte: 0 };
  return {
    kind: 'sqlite',
    name: options.name ?? 'main',
    url,
    baseDir: options.baseDir ?? tmpdir(),
    range: { filename: 'test.hcl', start: position, end: position },
    ...(options.migrations !== undefined ? { migrations: options.migrations } : {}),
    ...(options.busyTimeoutMs !== undefined ? { busyTimeoutMs: options.busyTimeoutMs } : {}),
  };
}

/** A set with one sqlite connection, opened. */
export async function openSqliteSet(url: string, options: SqliteOptions = {}): Promise<ConnectorSet> {
  const connection = sqliteConnection(url, options);
  const set = createConnectors({ connections: new Map([[`sqlite.${connection.name}`, connection]]) });
  await set.openAll();
  return set;
}

/** A fresh directory, removed by the returned function. */
export async function scratchDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-sqlite-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
