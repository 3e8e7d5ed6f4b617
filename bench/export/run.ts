/**
 * A 1,000,000-row export on a real PostgreSQL: svc serving bench/export/manifest (`sql "rows" {
 * stream = true }` into `stream "ndjson"`, and `stream "csv"`) against a hand-written node:http +
 * pg + pg-query-stream server (baseline.ts), measured in the same run, in alternating rounds.
 *
 *     npm run bench:export [-- --rounds 3 --slow-seconds 10 --slow-rate 1000000 --rows 1000000]
 *       [--svc-node-options='--max-semi-space-size=2']
 *
 * Per download (one client process, bench/lib/download-client.ts, reading the whole body and
 * discarding it; bench/lib/download.ts measures): wall time and MB/s (10^6 bytes), the server
 * process' CPU time, and its peak RSS (VmHWM, reset before each download through
 * /proc/<pid>/clear_refs, and the highest of RSS samples every 50 ms).
 * The first download of each format on each server is the check (and warm-up): both bodies must
 * have the same line count, byte length and SHA-256. Then a slow client (about 1 MB/s for 10 s, then
 * it leaves) on each server, with the RSS sampled every 250 ms, and a check that the server's query
 * is gone from pg_stat_activity after the client left.
 *
 * The server: SVC_TEST_POSTGRES_URL when set (the database svc_bench_export is created there once and
 * kept, so later runs skip the 1M-row insert), otherwise a throw-away one started here with
 * scripts/pg-test-server.sh and stopped at the end.
 *
 * Result: the median ratio svc/baseline of MB/s per format (goal >= 0.8), svc's peak RSS (goal
 * under 100 MB).
 */
import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { type Download, DOWNLOAD_CLIENT, loadAverage, machine, mbps, measuredDownload } from '../lib/download.js';
import { postgresServer } from '../lib/engines.js';
import { buildOnce, compiled, freePort, listeningPort, median, memoryMiB, spawnNode, stopChild, svcServe, SVC_LAUNCH, waitForPort } from '../lib/procs.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    rows: { type: 'string', default: '1000000' },
    'slow-seconds': { type: 'string', default: '10' },
    'slow-rate': { type: 'string', default: '1000000' },
    // Node options for the svc process only (informational runs, e.g. '--max-semi-space-size=2').
    'svc-node-options': { type: 'string', default: '' },
  },
});
const rounds = Number(values.rounds);
const rowCount = Number(values.rows);
const slowSeconds = Number(values['slow-seconds']);
const slowRate = Number(values['slow-rate']);

const DATABASE = 'svc_bench_export';
/** svc's log lines (one per request, with how each stream ended), kept for a look after the run. */
const svcLog = join(tmpdir(), `svc-bench-export-${process.pid}.log`);
const QUERY_MARK = 'FROM export_rows ORDER BY id';

interface Server {
  readonly name: 'svc' | 'baseline';
  readonly child: ChildProcess;
  readonly port: number;
}

const FORMATS = [
  { name: 'ndjson', path: '/export', lines: rowCount },
  // The header row, then one record per row.
  { name: 'csv', path: '/export.csv', lines: rowCount + 1 },
] as const;

/** Creates the table of `rowCount` rows unless it is there already with that many rows. */
async function prepare(url: string): Promise<{ databaseUrl: string; version: string; size: string }> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${DATABASE}`;
  const db = new pg.Client({ connectionString: target.toString() });
  await db.connect();
  try {
    const version = (await db.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
    const table = await db.query<{ n: string }>("SELECT count(*) AS n FROM pg_class WHERE relname = 'export_rows'");
    const present = table.rows[0]!.n !== '0' && Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM export_rows')).rows[0]!.n) === rowCount;
    if (!present) {
      console.log(`creating export_rows (${rowCount} rows)...`);
      const t0 = performance.now();
      await db.query('DROP TABLE IF EXISTS export_rows');
      await db.query(`CREATE TABLE export_rows (
        id bigint PRIMARY KEY,
        sku text NOT NULL,
        name text NOT NULL,
        price numeric(10, 2) NOT NULL,
        in_stock boolean NOT NULL,
        created_at timestamptz NOT NULL
      )`);
      // One name in ten holds a comma and quotes: csv quotes it, JSON escapes it.
      await db.query(
        `INSERT INTO export_rows
         SELECT i, 'SKU-' || lpad(i::text, 7, '0'),
                'Item ' || i || CASE WHEN i % 10 = 0 THEN ', the "special" one' ELSE '' END,
                round((i % 100000) / 100.0 + 0.99, 2), i % 3 <> 0,
                timestamptz '2024-01-01 00:00:00+00' + i * interval '1 second'
         FROM generate_series(1, $1::int) AS i`,
        [rowCount],
      );
      await db.query('VACUUM ANALYZE export_rows');
      console.log(`created in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    const size = (await db.query<{ s: string }>("SELECT pg_size_pretty(pg_total_relation_size('export_rows')) AS s")).rows[0]!.s;
    return { databaseUrl: target.toString(), version, size };
  } finally {
    await db.end();
  }
}

async function startSvc(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const nodeOptions = values['svc-node-options'].split(' ').filter((o) => o !== '');
  const child = spawnNode(svcServe('bench/export/manifest', port, nodeOptions), { env: { ...SVC_LAUNCH.env, ...env }, logFile: svcLog });
  await waitForPort(port, child, 'svc');
  return { name: 'svc', child, port };
}

async function startBaseline(env: Record<string, string>): Promise<Server> {
  const child = spawnNode(compiled('bench/export/baseline'), { env, stdout: 'pipe' });
  const port = await listeningPort(child, 'baseline');
  return { name: 'baseline', child, port };
}

function download(server: Server, path: string, args: readonly string[] = [], everyMs = 50): Promise<Download> {
  return measuredDownload(server.child.pid!, `http://127.0.0.1:${server.port}${path}`, args, everyMs);
}

const f = (n: number, digits = 0, width = 8): string => n.toFixed(digits).padStart(width);

/** The check download of one format on both servers: status, line count, byte length, SHA-256. */
async function check(servers: readonly Server[], format: (typeof FORMATS)[number]): Promise<void> {
  const bodies: Download[] = [];
  for (const server of servers) {
    const d = await download(server, format.path, ['--hash']);
    if (d.status !== 200 || d.error) throw new Error(`${server.name} ${format.path}: status ${d.status}${d.error ? `, ${d.error}` : ''}`);
    if (d.lines !== format.lines) throw new Error(`${server.name} ${format.path}: ${d.lines} lines, expected ${format.lines}`);
    console.log(`check ${server.name.padEnd(8)} ${format.path}: ${d.lines} lines, ${d.bytes} bytes, sha256 ${d.sha256!.slice(0, 16)}...`);
    bodies.push(d);
  }
  const [a, b] = bodies;
  if (a!.bytes !== b!.bytes || a!.sha256 !== b!.sha256) {
    throw new Error(`${format.path}: the bodies differ (${a!.bytes} vs ${b!.bytes} bytes); compare them with curl before measuring`);
  }
  console.log(`check ${format.path}: both bodies identical (same length and SHA-256)`);
}

interface Round {
  svc: Download;
  baseline: Download;
}

async function measure(svc: Server, baseline: Server, format: (typeof FORMATS)[number]): Promise<Round[]> {
  console.log(`\n== ${format.name}: GET ${format.path}, ${rounds} alternating rounds`);
  console.log('round  server      wall s     MB/s   rows/s   head ms   CPU s  CPU us/row  peak RSS MiB (VmHWM / max sample)');
  const out: Round[] = [];
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? [svc, baseline] : [baseline, svc];
    const got: Partial<Round> = {};
    for (const server of order) {
      const d = await download(server, format.path);
      if (d.status !== 200 || d.error || d.lines !== format.lines) throw new Error(`${server.name}: ${JSON.stringify(d)}`);
      got[server.name] = d;
      console.log(
        `${String(round).padStart(5)}  ${server.name.padEnd(9)} ${f(d.totalMs / 1000, 2)} ${f(mbps(d), 1)} ${f(format.lines / (d.totalMs / 1000))} ${f(d.headMs, 1, 9)}` +
          ` ${f(d.cpuMs / 1000, 2)} ${f((d.cpuMs * 1000) / format.lines, 2, 11)}  ${f(d.peak, 1)} / ${d.rssMax.toFixed(1)}`,
      );
    }
    out.push(got as Round);
  }
  const m = (pick: (r: Round) => number): number => median(out.map(pick));
  console.log(
    `${format.name}: median MB/s svc ${m((r) => mbps(r.svc)).toFixed(1)}, baseline ${m((r) => mbps(r.baseline)).toFixed(1)}; ` +
      `ratio svc/baseline ${m((r) => mbps(r.svc) / mbps(r.baseline)).toFixed(3)} (goal >= 0.80); ` +
      `CPU s svc ${m((r) => r.svc.cpuMs / 1000).toFixed(2)}, baseline ${m((r) => r.baseline.cpuMs / 1000).toFixed(2)} ` +
      `(efficiency baseline/svc ${m((r) => r.baseline.cpuMs / r.svc.cpuMs).toFixed(3)}); ` +
      `svc peak RSS max ${Math.max(...out.map((r) => Math.max(r.svc.peak || 0, r.svc.rssMax))).toFixed(1)} MiB, ` +
      `baseline ${Math.max(...out.map((r) => Math.max(r.baseline.peak || 0, r.baseline.rssMax))).toFixed(1)} MiB`,
  );
  return out;
}

/**
 * Waits until no backend holds the export query any more (each server's client back in its pool,
 * idle); answers how long that took (ms), or the backends still holding it after `withinMs`.
 */
async function queryGone(databaseUrl: string, withinMs: number): Promise<number | string> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const t0 = performance.now();
  try {
    for (;;) {
      const r = await db.query<{ pid: number; state: string; wait_event: string | null; since: string }>(
        `SELECT pid, state, wait_event, round(extract(epoch FROM now() - state_change) * 1000) AS since
         FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND state <> 'idle' AND position($1 in query) > 0`,
        [QUERY_MARK],
      );
      if (r.rows.length === 0) return performance.now() - t0;
      if (performance.now() - t0 >= withinMs) return r.rows.map((b) => `pid ${b.pid} ${b.state} (${b.wait_event}) for ${b.since} ms`).join(', ');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await db.end();
  }
}

async function slowClient(server: Server, databaseUrl: string): Promise<void> {
  const d = await download(server, '/export', ['--rate', String(slowRate), '--seconds', String(slowSeconds)], 250);
  const gone = await queryGone(databaseUrl, 5000);
  const perSecond: string[] = [];
  for (let s = 1; s <= slowSeconds; s++) {
    const upTo = d.samples.filter((x) => x.atMs <= s * 1000);
    if (upTo.length > 0) perSecond.push(upTo[upTo.length - 1]!.rss.toFixed(1));
  }
  const inWindow = d.samples.filter((x) => x.atMs >= 1000 && x.atMs <= slowSeconds * 1000).map((x) => x.rss);
  console.log(
    `${server.name.padEnd(9)} read ${(d.bytes / 1e6).toFixed(1)} MB in ${(d.totalMs / 1000).toFixed(1)} s (${mbps(d).toFixed(2)} MB/s), ` +
      `${d.lines} lines; server CPU ${(d.cpuMs / 1000).toFixed(2)} s; RSS MiB from 1 s to the end: min ${Math.min(...inWindow).toFixed(1)}, ` +
      `max ${Math.max(...inWindow).toFixed(1)}; peak (VmHWM) ${d.peak.toFixed(1)}; query gone ${typeof gone === 'number' ? `${gone.toFixed(0)} ms after the client left` : `NOT within 5 s after the client left: ${gone}`}`,
  );
  console.log(`          RSS MiB at each second: ${perSecond.join(' ')}`);
}

const engine = postgresServer();
let svc: Server | undefined;
let baseline: Server | undefined;
try {
  if (engine.started) console.log(`started a PostgreSQL server for this run: ${engine.url}`);
  const { databaseUrl, version, size } = await prepare(engine.url);
  buildOnce(['bench/export/baseline', DOWNLOAD_CLIENT]);
  const env = { DATABASE_URL: databaseUrl };
  svc = await startSvc(env);
  baseline = await startBaseline(env);
  console.log(`\n${machine()}, PostgreSQL ${version} on loopback, export_rows ${rowCount} rows (${size}); load average ${loadAverage()}`);
  console.log(`svc's log: ${svcLog}`);
  if (values['svc-node-options'] !== '') console.log(`svc runs under node ${values['svc-node-options']}`);
  console.log(`svc idle RSS ${memoryMiB(svc.child.pid!).rss.toFixed(1)} MiB, baseline idle RSS ${memoryMiB(baseline.child.pid!).rss.toFixed(1)} MiB\n`);
  const summary: string[] = [];
  for (const format of FORMATS) {
    await check([svc, baseline], format);
    const out = await measure(svc, baseline, format);
    const m = (pick: (r: Round) => number): number => median(out.map(pick));
    summary.push(
      `${format.name}: svc ${m((r) => mbps(r.svc)).toFixed(1)} MB/s (${m((r) => r.svc.totalMs / 1000).toFixed(2)} s), ` +
        `baseline ${m((r) => mbps(r.baseline)).toFixed(1)} MB/s (${m((r) => r.baseline.totalMs / 1000).toFixed(2)} s): ` +
        `ratio ${m((r) => mbps(r.svc) / mbps(r.baseline)).toFixed(3)}; svc peak RSS ${Math.max(...out.map((r) => Math.max(r.svc.peak || 0, r.svc.rssMax))).toFixed(1)} MiB`,
    );
  }
  console.log(`\n== slow client: about ${(slowRate / 1e6).toFixed(1)} MB/s for ${slowSeconds} s, then it leaves (GET /export)`);
  await slowClient(svc, databaseUrl);
  await slowClient(baseline, databaseUrl);
  console.log(`\n#### summary (medians of ${rounds} rounds)`);
  for (const line of summary) console.log(line);
} finally {
  if (svc) await stopChild(svc.child);
  if (baseline) await stopChild(baseline.child);
  engine.stop();
}
