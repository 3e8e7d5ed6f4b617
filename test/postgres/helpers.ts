/**
 * A whole service from manifest text, served in-process on real connections: the manifest is built
 * and compiled as `svc serve` does, its connections opened, and requests sent through Fastify's
 * `inject`. Used by the parallel and fault tests, which run on every postgres target (embedded
 * PGlite and the real server the test command starts); the suites shared with the other engines
 * are in test/sql-suite, run here through ./engine.ts. Also: probes of the served pool (rows, its
 * stats made whole, statements still running) and a server of a test's own to stop.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { PostgresHandle } from '../../src/connectors/index.js';
import { serveManifest, type ServedService } from '../http/helpers.js';
import { eventually, tempDir } from '../connectors/helpers.js';
import { ROOT } from '../paths.js';

export { closeTargets, eventually, NO_REAL_POSTGRES, REAL_POSTGRES_URL, TARGETS, type Target } from '../connectors/helpers.js';

export interface ServedManifest extends ServedService {
  /** The handle of `connection "postgres" "db"` (the name the postgres tests' manifests use), if declared. */
  readonly db: PostgresHandle;
}

/** `{{DB}}` in the manifest is replaced by `url`. */
export async function serve(manifest: string, url: string, options: { requestTimeoutMs?: number; dir?: string } = {}): Promise<ServedManifest> {
  const served = await serveManifest(manifest.replaceAll('{{DB}}', url), options);
  return {
    ...served,
    get db() {
      return served.connectors.handle('postgres', 'db');
    },
  };
}

/** Rows of a statement run on the served pool (a client of its own, given back idle). */
export async function rowsOf(s: ServedManifest, sql: string): Promise<Record<string, unknown>[]> {
  return (await s.db.query(sql)).rows;
}

/**
 * Waits (a poll, generous bound) until the pool of `db` is whole: nobody waiting, every open client
 * idle; then asserts it. Cancelled clients are destroyed and replaced lazily, so `total` may be lower
 * than before, never a client checked out and forgotten.
 */
export async function poolWhole(s: ServedManifest, ms = 5000): Promise<void> {
  const stats = await eventually(
    () => s.db.stats(),
    (st) => st.waiting === 0 && st.idle === st.total,
    ms,
  );
  assert.equal(stats.waiting, 0, `nobody waits for a client: ${JSON.stringify(stats)}`);
  assert.equal(stats.idle, stats.total, `every client is back: ${JSON.stringify(stats)}`);
}

/**
 * Real server only: the backends of this database still running a statement whose text contains
 * `marker`, polled until there are none (generous bound). The probe's own backend is left out.
 */
export async function activeQueries(s: ServedManifest, marker: string, ms = 5000): Promise<string[]> {
  const probe = async (): Promise<string[]> =>
    (
      await s.db.query<{ query: string }>({
        text: "SELECT query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND strpos(query, $1) > 0",
        values: [marker],
      })
    ).rows.map((r) => r.query);
  return eventually(probe, (running) => running.length === 0, ms);
}

const PG_TEST_SERVER = join(ROOT, 'scripts/pg-test-server.sh');
const run = promisify(execFile);

/** A PostgreSQL server of the test's own, which it may stop and restart (never the shared one). */
export interface OwnPostgres {
  readonly url: string;
  /** Stops the server at once (`pg_ctl -m immediate`), keeping its data. */
  halt(): Promise<void>;
  /** Starts it again on the same port. */
  restart(): Promise<void>;
  /** Stops it and removes its directory; idempotent. */
  remove(): Promise<void>;
}

/**
 * Starts a throw-away server with scripts/pg-test-server.sh in a temporary directory (as
 * test/connectors/outage.test.ts does), asynchronously so the event loop keeps serving meanwhile.
 * Rejects with the script's reason (e.g. no PostgreSQL installed).
 */
export async function ownPostgres(prefix = 'svc-pg-own-'): Promise<OwnPostgres> {
  // The directory itself: as root the script hands it to the postgres user, who could not enter a
  // directory below one of ours (mkdtemp makes them private).
  const dir = await tempDir(prefix);
  const script = async (...args: string[]): Promise<string> => {
    try {
      return (await run('bash', [PG_TEST_SERVER, ...args], { encoding: 'utf8' })).stdout.trim();
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr?.trim();
      throw new Error(`pg-test-server.sh ${args[0]} failed: ${stderr || String(error)}`, { cause: error });
    }
  };
  const url = await script('start', dir);
  const port = new URL(url).port;
  let removed = false;
  return {
    url,
    halt: async () => void (await script('halt', dir)),
    restart: async () => void (await script('start', dir, port)),
    async remove() {
      if (removed) return;
      removed = true;
      await script('stop', dir);
    },
  };
}
