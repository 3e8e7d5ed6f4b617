/**
 * The mysql tests' harness: a database of its own per test on the MariaDB server the test command
 * starts (scripts/mariadb-test-server.sh, SVC_TEST_MYSQL_URL), a whole service from manifest text
 * served on it (`{{DB}}` is its URL, the connection is `connection "mysql" "db"`), probes of the served
 * pool, and a server of a test's own to kill and restart.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2';
import type { SqlHandle } from '../../src/connectors/index.js';
import { cleanup, eventually, tempDir } from '../connectors/helpers.js';
import { serveManifest, type ServedService } from '../http/helpers.js';
import { ROOT } from '../paths.js';

export { eventually } from '../connectors/helpers.js';

export const MYSQL_URL = process.env.SVC_TEST_MYSQL_URL || undefined;
/** Why the tests skip without a server. */
export const NO_MYSQL =
  MYSQL_URL === undefined &&
  'SVC_TEST_MYSQL_URL is not set (`npm test` starts a MariaDB; by hand: scripts/mariadb-test-server.sh start DIR, then export the URL it prints)';

/** One statement on a connection of the test's own (outside the service under test). */
export async function adminQuery<T = Record<string, unknown>[]>(url: string, sql: string, values: unknown[] = []): Promise<T> {
  const connection = mysql.createConnection({ uri: url, multipleStatements: true });
  try {
    return await new Promise<T>((resolve, reject) => connection.query(sql, values, (error, rows) => (error ? reject(error) : resolve(rows as T))));
  } finally {
    connection.destroy();
  }
}

const databases: { url: string; name: string }[] = [];

/** A new empty database on `url`'s server (`MYSQL_URL` by default); its URL. Dropped by `dropDatabases`. */
export async function freshDatabase(url = MYSQL_URL!): Promise<string> {
  const name = `svc_t_${randomBytes(5).toString('hex')}`;
  await adminQuery(url, `CREATE DATABASE ${name}`);
  databases.push({ url, name });
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return fresh.toString();
}

/** Drops the databases `freshDatabase` made, and removes the temporary directories of the process' tests. */
export async function dropDatabases(): Promise<void> {
  for (const { url, name } of databases.splice(0)) await adminQuery(url, `DROP DATABASE IF EXISTS ${name}`).catch(() => {});
  await cleanup();
}

export interface ServedMysql extends ServedService {
  /** The handle of `connection "mysql" "db"`. */
  readonly db: SqlHandle;
}

/** `{{DB}}` in the manifest is replaced by `url`. */
export async function serve(manifest: string, url: string, options: { requestTimeoutMs?: number; dir?: string } = {}): Promise<ServedMysql> {
  const served = await serveManifest(manifest.replaceAll('{{DB}}', url), options);
  return {
    ...served,
    get db() {
      return served.connectors.handle('mysql', 'db');
    },
  };
}

/** Waits (a poll, generous bound) until the pool is whole: nobody waiting, every open connection idle; then asserts it. */
export async function poolWhole(s: ServedMysql, ms = 5000): Promise<void> {
  const stats = await eventually(
    () => s.db.stats(),
    (st) => st.waiting === 0 && st.idle === st.total,
    ms,
  );
  assert.equal(stats.waiting, 0, `nobody waits for a connection: ${JSON.stringify(stats)}`);
  assert.equal(stats.idle, stats.total, `every connection is back: ${JSON.stringify(stats)}`);
}

/**
 * The statements of the server still running whose text contains `marker`, polled until there are
 * none (generous bound), read from information_schema.processlist on a connection of the test's own.
 */
export async function runningStatements(url: string, marker: string, ms = 5000): Promise<string[]> {
  const probe = async (): Promise<string[]> =>
    (
      await adminQuery<{ info: string }[]>(
        url,
        "SELECT info FROM information_schema.processlist WHERE command <> 'Sleep' AND id <> CONNECTION_ID() AND info LIKE CONCAT('%', ?, '%')",
        [marker],
      )
    ).map((r) => r.info);
  return eventually(probe, (running) => running.length === 0, ms);
}

const SERVER_SCRIPT = join(ROOT, 'scripts/mariadb-test-server.sh');
const run = promisify(execFile);

/** A MariaDB server of the test's own, which it may kill and restart (never the shared one). */
export interface OwnMariadb {
  readonly url: string;
  /** Kills the server at once (SIGKILL), keeping its data. */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  restart(): Promise<void>;
  /** Stops it and removes its directory; idempotent. */
  remove(): Promise<void>;
}

/** `serverArgs`: more options for mariadbd (MARIADB_TEST_SERVER_ARGS of the script). */
export async function ownMariadb(serverArgs: readonly string[] = []): Promise<OwnMariadb> {
  const dir = await tempDir('svc-mariadb-own-');
  const env = { ...process.env, MARIADB_TEST_SERVER_ARGS: serverArgs.join(' ') };
  const script = async (...args: string[]): Promise<string> => {
    try {
      return (await run('bash', [SERVER_SCRIPT, ...args], { encoding: 'utf8', env })).stdout.trim();
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr?.trim();
      throw new Error(`mariadb-test-server.sh ${args[0]} failed: ${stderr || String(error)}`, { cause: error });
    }
  };
  const url = await script('start', dir);
  const port = new URL(url).port;
  let removed = false;
  return {
    url,
    async kill() {
      const { readFile } = await import('node:fs/promises');
      const pid = Number((await readFile(join(dir, 'mariadb.pid.shell'), 'utf8')).trim());
      process.kill(pid, 'SIGKILL');
      await eventually(
        () => {
          try {
            process.kill(pid, 0);
            return false;
          } catch {
            return true;
          }
        },
        (gone) => gone,
        5000,
      );
    },
    restart: async () => void (await script('start', dir, port)),
    async remove() {
      if (removed) return;
      removed = true;
      await script('stop', dir);
    },
  };
}

/** A name no other test uses, for markers in statements. */
export function marker(): string {
  return `m${randomBytes(4).toString('hex')}`;
}
