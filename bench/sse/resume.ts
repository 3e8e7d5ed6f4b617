/**
 * A client back after missing N events (default 10,000): the SSE stream resumed from its
 * Last-Event-ID (bench/sse/resume-manifest: the rows replayed from the table, then the LISTEN feed)
 * beside the same rows exported as ndjson by the same svc process, in the same run, and as SSE events
 * with the same ids but no live source (what the framing costs alone). Each round reads the three,
 * rotating which goes first; the ratio is the replay's rows per second over the export's.
 * CPU per row is the svc process' user + system time over the read, divided by the rows.
 *
 *     node --import tsx bench/sse/resume.ts [-- --rows 10000 --rounds 7]
 *
 * The PostgreSQL server: SVC_TEST_POSTGRES_URL when set, otherwise a throw-away one started here; a
 * database of this run's own is created on it and dropped at the end.
 */
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { postgresServer } from '../lib/engines.js';
import { cpuMs, freePort, median, spawnNode, stopChild, svcServe, SVC_LAUNCH, waitForPort } from '../lib/procs.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '7' },
  },
});
const rows = Number(values.rows);

/** Reads `path` until `done(text)` holds; the resumed stream never ends by itself. */
function read(port: number, path: string, headers: Record<string, string>, done: (text: string) => boolean): Promise<{ ms: number; bytes: number }> {
  return new Promise((resolveRead, reject) => {
    const started = process.hrtime.bigint();
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let bytes = 0;
      let tail = '';
      const finish = (): void => {
        resolveRead({ ms: Number(process.hrtime.bigint() - started) / 1e6, bytes });
        res.destroy();
      };
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        // The chunk with what came just before it: a marker may straddle two chunks.
        const text = tail + chunk.toString('latin1');
        if (done(text)) finish();
        tail = text.slice(-64);
      });
      res.on('end', finish);
      res.on('error', () => {});
    });
    req.on('error', reject);
    req.end();
  });
}

interface Sample {
  readonly ms: number;
  readonly cpuUs: number;
  readonly bytes: number;
}

type Which = 'replay' | 'ndjson' | 'sse';

async function sample(pid: number, port: number, which: Which): Promise<Sample> {
  const before = cpuMs(pid);
  const last = `id: ${rows}\n`;
  const { ms, bytes } =
    which === 'replay'
      ? await read(port, '/events', { 'last-event-id': '0' }, (text) => text.includes(last))
      : await read(port, `/export.${which}`, {}, () => false);
  return { ms, cpuUs: ((cpuMs(pid) - before) * 1000) / rows, bytes };
}

const engine = postgresServer();
const admin = new pg.Client({ connectionString: engine.url });
await admin.connect();
const database = `svc_bench_resume_${process.pid}`;
await admin.query(`CREATE DATABASE ${database}`);
const url = new URL(engine.url);
url.pathname = `/${database}`;
const db = new pg.Client({ connectionString: url.toString() });
await db.connect();
await db.query('CREATE TABLE events (seq bigint PRIMARY KEY, body text NOT NULL)');
// Rows of a chat-like feed, about 120 bytes of JSON each.
await db.query(
  `INSERT INTO events SELECT g, 'message number ' || g || ' from the bench, with some text to make it a realistic size' FROM generate_series(0, ${rows}) g`,
);
await db.end();

const port = await freePort();
const child = spawnNode(svcServe('bench/sse/resume-manifest', port), { env: { ...SVC_LAUNCH.env, DATABASE_URL: url.toString() } });
try {
  await waitForPort(port, child, 'svc');
  const pid = child.pid!;
  // Warm-up: every path twice.
  for (const which of ['replay', 'ndjson', 'sse', 'replay', 'ndjson', 'sse'] as const) await sample(pid, port, which);
  const samples: Record<Which, Sample[]> = { replay: [], ndjson: [], sse: [] };
  const orders: readonly (readonly Which[])[] = [
    ['replay', 'ndjson', 'sse'],
    ['ndjson', 'sse', 'replay'],
    ['sse', 'replay', 'ndjson'],
  ];
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const which of orders[round % 3]!) samples[which].push(await sample(pid, port, which));
    const [r, n, e] = [samples.replay.at(-1)!, samples.ndjson.at(-1)!, samples.sse.at(-1)!];
    console.log(
      `round ${round} (load ${loadavg()[0]!.toFixed(1)}): replay ${r.ms.toFixed(0)} ms, ndjson ${n.ms.toFixed(0)} ms, sse export ${e.ms.toFixed(0)} ms; ` +
        `throughput ratio ${(n.ms / r.ms).toFixed(2)}`,
    );
  }
  const { replay, ndjson, sse } = samples;
  const ratio = median(replay.map((r, i) => ndjson[i]!.ms / r.ms));
  console.log(
    `${rows} rows, median of ${replay.length}: replay ${median(replay.map((r) => r.ms)).toFixed(0)} ms (${median(replay.map((r) => r.cpuUs)).toFixed(2)} us CPU/row, ${replay[0]!.bytes} bytes), ` +
      `ndjson ${median(ndjson.map((r) => r.ms)).toFixed(0)} ms (${median(ndjson.map((r) => r.cpuUs)).toFixed(2)} us CPU/row, ${ndjson[0]!.bytes} bytes), ` +
      `sse export ${median(sse.map((r) => r.ms)).toFixed(0)} ms (${median(sse.map((r) => r.cpuUs)).toFixed(2)} us CPU/row); ` +
      `replay throughput / ndjson throughput = ${ratio.toFixed(2)}, / sse export throughput = ${median(replay.map((r, i) => sse[i]!.ms / r.ms)).toFixed(2)}`,
  );
} finally {
  await stopChild(child);
  await admin.query(`DROP DATABASE ${database} WITH (FORCE)`).catch(() => {});
  await admin.end();
  engine.stop();
}
