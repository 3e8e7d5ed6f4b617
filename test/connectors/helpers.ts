/**
 * Shared by the connector tests: connection models built by hand, the two postgres targets every
 * postgres test runs on (embedded PGlite, and the real server `scripts/test.sh` starts and names in
 * SVC_TEST_POSTGRES_URL), fresh isolated databases on each, and a recording logger.
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rename, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnectors, type ConnectorLogger, type ConnectorSet, type RetryPolicy } from '../../src/connectors/index.js';
import type { ConnectionModel } from '../../src/model/index.js';

export const REAL_POSTGRES_URL = process.env.SVC_TEST_POSTGRES_URL || undefined;

export const NO_REAL_POSTGRES =
  'SVC_TEST_POSTGRES_URL is not set, so there is no PostgreSQL server to test against ' +
  '(`npm test` starts one; by hand: scripts/pg-test-server.sh start DIR, then export the URL it prints)';

/** A short retry for tests that expect a failure. */
export const FAST_RETRY: RetryPolicy = { attempts: 3, initialDelayMs: 20, maxDelayMs: 40 };

export interface ConnectionOptions {
  readonly name?: string;
  readonly pool?: { readonly max?: number; readonly idleTimeoutMs?: number };
  readonly statementTimeoutMs?: number;
  readonly migrations?: string;
  readonly baseDir?: string;
}

export function postgresConnection(url: string, options: ConnectionOptions = {}): ConnectionModel {
  const position = { line: 1, column: 1, byte: 0 };
  return {
    kind: 'postgres',
    name: options.name ?? 'main',
    url,
    baseDir: options.baseDir ?? tmpdir(),
    range: { filename: 'test.hcl', start: position, end: position },
    ...(options.pool !== undefined ? { pool: options.pool } : {}),
    ...(options.statementTimeoutMs !== undefined ? { statementTimeoutMs: options.statementTimeoutMs } : {}),
    ...(options.migrations !== undefined ? { migrations: options.migrations } : {}),
  };
}

export function modelOf(...connections: ConnectionModel[]): { connections: ReadonlyMap<string, ConnectionModel> } {
  return { connections: new Map(connections.map((c) => [`${c.kind}.${c.name}`, c])) };
}

export interface LogLine {
  readonly level: 'info' | 'warn';
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

export function recordingLogger(): ConnectorLogger & { readonly lines: LogLine[] } {
  const lines: LogLine[] = [];
  return {
    lines,
    info: (fields, message) => lines.push({ level: 'info', fields: fields as Record<string, unknown>, message }),
    warn: (fields, message) => lines.push({ level: 'warn', fields: fields as Record<string, unknown>, message }),
  };
}

/** A directory removed when the process' tests end (see `cleanup`). */
const made: string[] = [];

export async function tempDir(prefix = 'svc-connectors-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export async function cleanup(): Promise<void> {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/** One of the two engines the postgres tests run on. */
export interface Target {
  readonly name: 'pglite' | 'postgres';
  /** A reason to skip, or false. */
  readonly skip: string | false;
  /** The URL of a database no other test uses. */
  fresh(): Promise<string>;
}

let pgliteTemplate: Promise<string> | undefined;

/**
 * PGlite creates a database in 3 to 15 s (initdb, on top of compiling its WebAssembly) but reopens a
 * directory in a fifth of that: the first fresh database is made once and each test gets a copy of
 * it. Once per test run when `scripts/test.sh` names a place for it in SVC_TEST_PGLITE_TEMPLATE (it
 * removes it at the end), otherwise once per test process.
 */
async function pgliteFresh(): Promise<string> {
  pgliteTemplate ??= pgliteTemplateDir(process.env.SVC_TEST_PGLITE_TEMPLATE || undefined);
  const template = await pgliteTemplate;
  const copy = join(await tempDir('svc-pglite-'), 'data');
  await cp(template, copy, { recursive: true });
  return `pglite:${copy}`;
}

async function pgliteTemplateDir(shared: string | undefined): Promise<string> {
  // PG_VERSION is there only in a whole template: one is renamed into place once it is closed.
  if (shared !== undefined && existsSync(join(shared, 'PG_VERSION'))) return shared;
  const dir = join(await tempDir('svc-pglite-template-'), 'data');
  const set = createConnectors(modelOf(postgresConnection(`pglite:${dir}`)));
  await set.openAll();
  await set.closeAll();
  if (shared === undefined) return dir;
  try {
    await rename(dir, shared);
  } catch {
    // Another test process placed its template first (ours stays private to this process), or the
    // place cannot be written: either way this process' own copy serves.
    return existsSync(join(shared, 'PG_VERSION')) ? shared : dir;
  }
  return shared;
}

let admin: ConnectorSet | undefined;
let databases = 0;

/** A new database on the real server, named after this process so parallel test files never meet. */
async function realFresh(): Promise<string> {
  if (admin === undefined) {
    admin = createConnectors(modelOf(postgresConnection(REAL_POSTGRES_URL!, { name: 'admin' })));
    await admin.openAll();
  }
  const name = `svc_test_${process.pid}_${++databases}`;
  await admin.handle('postgres', 'admin').query(`CREATE DATABASE ${name}`);
  const url = new URL(REAL_POSTGRES_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Closes what the targets opened and removes temporary directories: call in a top-level `after`. */
export async function closeTargets(): Promise<void> {
  await admin?.closeAll();
  admin = undefined;
  await cleanup();
}

export const TARGETS: readonly Target[] = [
  { name: 'pglite', skip: false, fresh: pgliteFresh },
  { name: 'postgres', skip: REAL_POSTGRES_URL === undefined ? NO_REAL_POSTGRES : false, fresh: realFresh },
];

/** A TCP server that counts connections and answers nothing: proof that something did (not) connect. */
export async function countingServer(): Promise<{ port: number; connections(): number; close(): Promise<void> }> {
  let count = 0;
  const server: Server = createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { port, connections: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A loopback port nothing listens on (taken, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls `check` until it holds or `ms` pass; answers its last value. */
export async function eventually<T>(check: () => T | Promise<T>, ok: (value: T) => boolean, ms = 2000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}
