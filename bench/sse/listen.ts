/**
 * SSE fan-out from PostgreSQL LISTEN/NOTIFY (bench/sse/listen-manifest) beside Redis pub/sub on the
 * embedded store (bench/sse/manifest, `memory:`), the same clients and messages (bench/sse/client.ts),
 * in the same run: CPU per delivery, latency, and whether every client got every message. Each
 * round runs both, one after the other (pub/sub first).
 *
 *     node --import tsx bench/sse/listen.ts [-- --clients 10000 --hold 6 --messages 20 --every 500 --rounds 1]
 *
 * The PostgreSQL server: SVC_TEST_POSTGRES_URL when set, otherwise a throw-away one started here; a
 * database of this run's own is created on it and dropped at the end. CPU per delivery is the svc
 * process' user + system time over the publish phase (the messages and the heartbeats meanwhile)
 * divided by the deliveries, as bench/sse reports it.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { postgresServer } from '../lib/engines.js';
import { buildOnce, compiled, cpuMs, freePort, onJsonLines, spawnNode, stopChild, svcServe, SVC_LAUNCH, waitForPort } from '../lib/procs.js';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '10000' },
    hold: { type: 'string', default: '6' },
    messages: { type: 'string', default: '20' },
    every: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '1' },
  },
});

interface Report {
  phase: string;
  clients: number;
  failed?: number;
  expected: number;
  deliveries: number;
  p50: number;
  p99: number;
  closedEarly: number;
}

/** The client process of bench/sse; `on` sees each phase line as it comes. */
function runClient(port: number, args: Record<string, number>, on: (report: Report) => void = () => {}): Promise<Report> {
  const argv = [`--port=${port}`, ...Object.entries(args).map(([k, v]) => `--${k}=${v}`)];
  return new Promise((resolveReport, reject) => {
    const child = spawnNode(compiled('bench/sse/client', argv), { stdout: 'pipe', manyFiles: true });
    let result: Report | undefined;
    onJsonLines(child, (message) => {
      const report = message as unknown as Report;
      on(report);
      if (report.phase === 'result') result = report;
    });
    const limit = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.once('exit', (code) => {
      clearTimeout(limit);
      if (result) resolveReport(result);
      else reject(new Error(`the client exited with code ${code} without a result`));
    });
  });
}

async function measure(name: string, manifest: string, env: Record<string, string>): Promise<void> {
  const port = await freePort();
  const child = spawnNode(svcServe(manifest, port), { env: { ...SVC_LAUNCH.env, ...env }, manyFiles: true });
  try {
    await waitForPort(port, child, 'svc');
    const pid = child.pid!;
    const warm = await runClient(port, { clients: 10, hold: 0, messages: 3, every: 50 });
    if (warm.deliveries !== 30) throw new Error(`${name}: the warm-up got ${warm.deliveries} of 30 deliveries`);
    let publishing = NaN;
    let end = NaN;
    const r = await runClient(
      port,
      { clients: Number(values.clients), hold: Number(values.hold), messages: Number(values.messages), every: Number(values.every) },
      (report) => {
        if (report.phase === 'publishing') publishing = cpuMs(pid);
        // Before the client leaves: closing N connections is not the publish phase's work.
        if (report.phase === 'result') end = cpuMs(pid);
      },
    );
    const us = ((end - publishing) * 1000) / Math.max(1, r.deliveries);
    console.log(
      `  ${name.padEnd(14)} clients ${r.clients}, deliveries ${r.deliveries}/${r.expected}, closed early ${r.closedEarly}; ` +
        `latency ms p50 ${r.p50.toFixed(1)} p99 ${r.p99.toFixed(1)}; CPU per delivery ${us.toFixed(1)} us`,
    );
  } finally {
    await stopChild(child);
  }
}

buildOnce(['bench/sse/client']);
const engine = postgresServer();
const admin = new pg.Client({ connectionString: engine.url });
await admin.connect();
const database = `svc_bench_listen_${process.pid}`;
await admin.query(`CREATE DATABASE ${database}`);
const url = new URL(engine.url);
url.pathname = `/${database}`;
try {
  for (let round = 1; round <= Number(values.rounds); round++) {
    console.log(`-- round ${round}, load average ${loadavg()[0]!.toFixed(1)}`);
    await measure('pub/sub memory:', 'bench/sse/manifest', { REDIS_URL: 'memory:' });
    await measure('LISTEN/NOTIFY', 'bench/sse/listen-manifest', { DATABASE_URL: url.toString() });
  }
} finally {
  await admin.query(`DROP DATABASE ${database} WITH (FORCE)`).catch(() => {});
  await admin.end();
  engine.stop();
}
