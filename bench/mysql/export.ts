/**
 * A 1,000,000-row ndjson export on MySQL/MariaDB: svc serving bench/mysql/manifest (`sql "rows" {
 * stream = true }` into `stream "ndjson"`, export.hcl), downloaded whole by
 * bench/lib/download-client.ts (its own process, reading as fast as it can), and a slow client (about
 * 1 MB/s for a few seconds, then it leaves). Per download (bench/lib/download.ts): wall time, MB/s,
 * svc's CPU time and its peak RSS (VmHWM, reset before each download through
 * /proc/<pid>/clear_refs, and the highest RSS sample every 50 ms).
 * Goal (issue 32): peak RSS under 100 MB.
 *
 *     npm run bench:mysql-export [-- --rounds 3 --rows 1000000 --slow-seconds 5 --slow-rate 1000000]
 *
 * The server: SVC_TEST_MYSQL_URL when set, otherwise a throw-away MariaDB started with
 * scripts/mariadb-test-server.sh and stopped at the end. A database of its own is created (svc's
 * migrations create the table, filled here) and dropped at the end.
 */
import { parseArgs } from 'node:util';
import mysql from 'mysql2/promise';
import { type Download, DOWNLOAD_CLIENT, loadAverage, machine, mbps, measuredDownload } from '../lib/download.js';
import { mysqlServer } from '../lib/engines.js';
import { buildOnce, freePort, median, memoryMiB, spawnNode, stopChild, svcServe, SVC_LAUNCH, waitForPort } from '../lib/procs.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    rows: { type: 'string', default: '1000000' },
    'slow-seconds': { type: 'string', default: '5' },
    'slow-rate': { type: 'string', default: '1000000' },
  },
});
const rounds = Number(values.rounds);
const rowCount = Number(values.rows);
const slowSeconds = Number(values['slow-seconds']);
const slowRate = Number(values['slow-rate']);

function download(pid: number, port: number, args: readonly string[] = [], everyMs = 50): Promise<Download> {
  return measuredDownload(pid, `http://127.0.0.1:${port}/export.ndjson`, args, everyMs);
}

const engine = mysqlServer();
const admin = await mysql.createConnection({ uri: engine.url });
const database = `svc_bench_mysql_export_${process.pid}`;
let svc: ReturnType<typeof spawnNode> | undefined;
try {
  if (engine.started) console.log(`started a MariaDB server for this run: ${engine.url}`);
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(engine.url);
  url.pathname = `/${database}`;
  buildOnce([DOWNLOAD_CLIENT]);
  const port = await freePort();
  svc = spawnNode(svcServe('bench/mysql/manifest', port), { env: { ...SVC_LAUNCH.env, DATABASE_URL: url.toString() } });
  await waitForPort(port, svc, 'svc');
  const fillStarted = performance.now();
  await admin.query(
    `INSERT INTO ${database}.export_rows SELECT seq, CONCAT('name-', seq), seq * 1.25, '2024-01-01' + INTERVAL seq SECOND FROM seq_1_to_${rowCount}`,
  );
  const [[{ version }]] = (await admin.query('SELECT VERSION() AS version')) as unknown as [[{ version: string }]];
  console.log(
    `\n${machine()}, ${version} on loopback, export_rows ${rowCount} rows ` +
      `(filled in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s); load average ${loadAverage()}`,
  );
  const pid = svc.pid!;
  console.log(`svc idle RSS ${memoryMiB(pid).rss.toFixed(1)} MiB\n`);
  console.log('round     wall s     MB/s   rows/s   head ms   CPU s  CPU us/row  peak RSS MiB (VmHWM / max sample)');
  const out: Download[] = [];
  for (let round = 0; round <= rounds; round++) {
    const d = await download(pid, port);
    if (d.status !== 200 || d.error || d.lines !== rowCount) throw new Error(`status ${d.status}, ${d.lines} lines${d.error ? `, ${d.error}` : ''}`);
    // Round 0 warms up (the table read into the buffer pool, svc's code optimized): not counted.
    if (round > 0) out.push(d);
    console.log(
      `${round === 0 ? 'warm-up' : String(round).padStart(7)} ${(d.totalMs / 1000).toFixed(2).padStart(8)} ${mbps(d).toFixed(1).padStart(8)} ` +
        `${((d.lines / d.totalMs) * 1000).toFixed(0).padStart(8)} ${d.headMs.toFixed(0).padStart(9)} ${(d.cpuMs / 1000).toFixed(2).padStart(7)} ` +
        `${((d.cpuMs * 1000) / d.lines).toFixed(2).padStart(11)}  ${d.peak.toFixed(1)} / ${d.rssMax.toFixed(1)}`,
    );
  }
  const slow = await download(pid, port, ['--rate', String(slowRate), '--seconds', String(slowSeconds)], 250);
  console.log(
    `\nslow client: read ${(slow.bytes / 1e6).toFixed(1)} MB in ${(slow.totalMs / 1000).toFixed(1)} s, then left; ` +
      `svc peak RSS ${slow.peak.toFixed(1)} / ${slow.rssMax.toFixed(1)} MiB`,
  );
  const [[{ running }]] = (await admin.query(
    "SELECT COUNT(*) AS running FROM information_schema.processlist WHERE info LIKE '%FROM export_rows%' AND id <> CONNECTION_ID()",
  )) as unknown as [[{ running: number }]];
  console.log(`statements still reading export_rows after the slow client left: ${running}`);
  const peak = Math.max(...out.map((d) => Math.max(d.peak || 0, d.rssMax)), slow.peak || 0, slow.rssMax);
  console.log(
    `\n#### summary (medians of ${rounds} rounds): ${median(out.map(mbps)).toFixed(1)} MB/s, ${median(out.map((d) => d.totalMs / 1000)).toFixed(2)} s ` +
      `for ${rowCount} rows; svc peak RSS ${peak.toFixed(1)} MiB (goal: under 100 MB)`,
  );
} finally {
  if (svc) await stopChild(svc);
  await admin.query(`DROP DATABASE IF EXISTS ${database}`).catch(() => {});
  await admin.end().catch(() => {});
  engine.stop();
}
