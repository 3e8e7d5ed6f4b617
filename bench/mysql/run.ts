/**
 * `GET /api/v1/users/{id}` on MySQL/MariaDB: svc serving bench/mysql/manifest against a hand-written
 * Fastify + mysql2 service with the same pool size (baseline.ts), on the same database, measured in
 * the same run by the shared runner (bench/lib/harness.ts: alternating rounds, child processes,
 * compiled code).
 *
 *     npm run bench:mysql [-- --rounds 5 --seconds 3 --connections 16 --extra-rounds 3 --logging-rounds 5]
 *
 * The server: SVC_TEST_MYSQL_URL when set, otherwise a throw-away MariaDB started here with
 * scripts/mariadb-test-server.sh (and stopped at the end). A new database is created for the run
 * (svc's migrations create and seed the tables) and dropped afterwards.
 *
 * Main result: the median ratio svc/Fastify of req/s (goal >= 0.95) and of p99.
 */
import mysql from 'mysql2/promise';
import { mysqlServer } from '../lib/engines.js';
import { type BenchSummary, runBench, type Scenario } from '../lib/harness.js';

const ADA = { id: 1, email: 'ada@example.com', full_name: 'Ada Lovelace', created_at: '2024-01-15T09:30:00.000Z' };

const found: Scenario = {
  name: 'found (200)',
  path: '/api/v1/users/1',
  status: 200,
  check(_server, _status, body) {
    if (JSON.stringify(body) !== JSON.stringify(ADA)) throw new Error(`expected ${JSON.stringify(ADA)}, got ${JSON.stringify(body)}`);
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

const server = mysqlServer();
const admin = await mysql.createConnection({ uri: server.url });
const database = `svc_bench_mysql_${process.pid}`;
let result: { main: BenchSummary; logging?: BenchSummary } | undefined;
try {
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(server.url);
  url.pathname = `/${database}`;
  const [[{ version }]] = (await admin.query('SELECT VERSION() AS version')) as unknown as [[{ version: string }]];
  console.log(`\n#### ${version} (a real server on loopback), pool of 10 connections on both sides\n`);
  result = await runBench({
    title: 'GET /api/v1/users/{id} on MariaDB',
    manifest: 'bench/mysql/manifest',
    baseline: 'bench/mysql/baseline',
    goal: 0.95,
    env: { DATABASE_URL: url.toString() },
    main: found,
    extra: [missing],
  });
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${database}`).catch(() => {});
  await admin.end().catch(() => {});
  server.stop();
}

const line = (name: string, s: BenchSummary): string =>
  `${name}: svc ${s.svcRps.toFixed(0)} req/s vs ${s.fastifyRps.toFixed(0)}, throughput ratio ${s.ratio.toFixed(3)}; ` +
  `p99 ${s.svcP99.toFixed(2)} ms vs ${s.fastifyP99.toFixed(2)} ms, p99 ratio ${s.p99Ratio.toFixed(3)}`;
console.log('\n#### summary (medians)');
if (result) {
  console.log(line('MariaDB, Fastify + mysql2 logging nothing', result.main) + ' (goal: >= 0.95)');
  if (result.logging) console.log(line('MariaDB, Fastify + mysql2 logging one line per request', result.logging));
}
