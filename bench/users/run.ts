/**
 * `GET /api/v1/users/{id}` (SPEC.md §4.4): svc serving examples/shop against a hand-written Fastify +
 * `pg` service with the same pool size (baseline.ts), on the same real PostgreSQL database, measured
 * in the same run by the shared runner (bench/lib/harness.ts: alternating rounds, child processes,
 * compiled code). Then, informational, the same on PGlite (`DATABASE_URL=pglite:`, in memory): svc
 * against Fastify calling PGlite in-process.
 *
 *     npm run bench:users [-- --rounds 5 --seconds 3 --connections 16 --extra-rounds 3 --logging-rounds 5]
 *
 * The server: SVC_TEST_POSTGRES_URL when set, otherwise a throw-away one started here with
 * scripts/pg-test-server.sh (and stopped at the end). A new database is created for the run (svc's
 * migration creates and seeds the tables) and dropped afterwards. BENCH_USERS_PGLITE=0 skips the
 * PGlite part.
 *
 * Main result: the median ratio svc/Fastify of req/s (goal >= 0.95) and of p99 (goal <= 1.1).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type BenchSummary, root, runBench, type Scenario } from '../lib/harness.js';

const ADA = { id: 1, email: 'ada@example.com', full_name: 'Ada Lovelace', created_at: '2024-01-15T09:30:00.000Z' };

const found: Scenario = {
  name: 'found (200)',
  path: '/api/v1/users/1',
  status: 200,
  check(_server, _status, body) {
    if (JSON.stringify(body) !== JSON.stringify(ADA)) throw new Error(`expected ${JSON.stringify(ADA)}`);
  },
};

const missing: Scenario = {
  name: 'not found (404)',
  path: '/api/v1/users/999',
  status: 404,
  check(_server, _status, body) {
    if ((body as { title?: unknown }).title !== 'User not found') throw new Error('expected the "User not found" problem');
  },
};

/** The server to measure on, and how to let it go. */
function server(): { url: string; stop(): void } {
  const given = process.env.SVC_TEST_POSTGRES_URL;
  if (given) return { url: given, stop: () => {} };
  // The directory itself (not one inside it): as root the script hands it to the postgres user, who
  // could not enter a private directory above it.
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-pg-'));
  const script = join(root, 'scripts/pg-test-server.sh');
  let url: string;
  try {
    url = execFileSync(script, ['start', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start a PostgreSQL server (scripts/pg-test-server.sh); set SVC_TEST_POSTGRES_URL instead: ${(error as Error).message}`);
  }
  console.log(`started a PostgreSQL server for this run: ${url}`);
  return {
    url,
    stop() {
      execFileSync(script, ['stop', dir], { stdio: 'ignore' });
    },
  };
}

const pgServer = server();
const admin = new pg.Client({ connectionString: pgServer.url });
const database = `svc_bench_users_${process.pid}`;
let real: { main: BenchSummary; logging?: BenchSummary } | undefined;
let embedded: { main: BenchSummary } | undefined;
try {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(pgServer.url);
  url.pathname = `/${database}`;
  const version = (await admin.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;

  console.log(`\n#### PostgreSQL ${version} (a real server on loopback), pool of 10 clients on both sides\n`);
  real = await runBench({
    title: 'GET /api/v1/users/{id} on PostgreSQL',
    manifest: 'examples/shop',
    baseline: 'bench/users/baseline',
    goal: 0.95,
    env: { DATABASE_URL: url.toString() },
    main: found,
    extra: [missing],
  });

  if (process.env.BENCH_USERS_PGLITE !== '0') {
    console.log('\n#### PGlite in memory (informational: one query at a time, in the server process)\n');
    embedded = await runBench({
      title: 'GET /api/v1/users/{id} on PGlite',
      manifest: 'examples/shop',
      baseline: 'bench/users/baseline',
      env: { DATABASE_URL: 'pglite:' },
      loggingRounds: 0,
      main: found,
    });
  }
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => {});
  await admin.end().catch(() => {});
  pgServer.stop();
}

const line = (name: string, s: BenchSummary): string =>
  `${name}: svc ${s.svcRps.toFixed(0)} req/s vs ${s.fastifyRps.toFixed(0)}, throughput ratio ${s.ratio.toFixed(3)}; ` +
  `p99 ${s.svcP99.toFixed(2)} ms vs ${s.fastifyP99.toFixed(2)} ms, p99 ratio ${s.p99Ratio.toFixed(3)}`;
console.log('\n#### summary (medians)');
if (real) {
  console.log(line('PostgreSQL, Fastify + pg logging nothing', real.main) + ' (goals: >= 0.95, <= 1.10)');
  if (real.logging) console.log(line('PostgreSQL, Fastify + pg logging one line per request', real.logging));
}
if (embedded) console.log(line('PGlite in memory, Fastify calling PGlite in-process', embedded.main));
