/**
 * A 1,000,000-row ndjson export from SQLite (issue 32: peak resident memory under 100 MB):
 * examples/sqlite-crud's `GET /tasks.ndjson` (`stream = true`: rows stepped a batch per turn of the
 * loop, read as the client takes them) over a database file of a million tasks, read whole by a
 * client that counts lines; against the hand-written Fastify + node:sqlite export of baseline.ts
 * (`iterate()` through Readable.from) over a copy of the same file. Each run starts each server
 * afresh, leaves it idle for `--idle-seconds` (svc's idle collection runs after 6 s: the state a
 * server is in when an export arrives), then exports once; `--runs` runs, the servers alternated.
 * Reported per server: time, rows per second, resident memory before the request and its peak
 * during it (VmHWM, the kernel's own high-water mark, reset before each request). svc runs with
 * bin/svc.js's launch settings, the baseline with Node's defaults (`--baseline-like-svc`: with
 * svc's).
 *
 *     /work/main/.cache/node-lines/22/node --import tsx bench/sqlite/export.ts [--rows 1000000] [--runs 3] [--idle-seconds 14]
 *       [--svc-node-options=--max-semi-space-size=4] [--baseline-like-svc]
 */
import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  buildOnce,
  compiled,
  freePort,
  listeningPort,
  median,
  memoryMiB,
  resetPeak,
  spawnNode,
  stopChild,
  SVC_LAUNCH,
  svcServe,
  waitForPort,
} from '../lib/procs.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '3' },
    'idle-seconds': { type: 'string', default: '14' },
    'baseline-like-svc': { type: 'boolean', default: false },
    // More Node options for svc after bin/svc.js's own (a later V8 flag wins): `--svc-node-options=--max-semi-space-size=4`.
    'svc-node-options': { type: 'string', default: '' },
  },
});
const rows = Number(values.rows);
const runs = Number(values.runs);
const idleMs = Number(values['idle-seconds']) * 1000;

interface Database {
  exec(sql: string): void;
  prepare(sql: string): { run(...values: unknown[]): unknown; get(): unknown };
  close(): void;
}
const { DatabaseSync } = (await import('node:sqlite' as string)) as { DatabaseSync: new (path: string) => Database };

interface Server {
  readonly name: 'svc' | 'fastify';
  readonly port: number;
  readonly child: ChildProcess;
}

async function serveSvc(file: string): Promise<Server> {
  const port = await freePort();
  const child = spawnNode(
    svcServe(
      'examples/sqlite-crud',
      port,
      values['svc-node-options'].split(' ').filter((o) => o !== ''),
    ),
    { env: { ...SVC_LAUNCH.env, DATABASE_URL: `sqlite:${file}` } },
  );
  await waitForPort(port, child, 'svc');
  return { name: 'svc', port, child };
}

/** baseline.ts over `<file>.baseline`, a copy of svc's file; it prints `listening <port>`. */
async function serveBaseline(file: string): Promise<Server> {
  const launch = values['baseline-like-svc'] ? SVC_LAUNCH : { nodeArgs: [], env: {} };
  const child = spawnNode([...launch.nodeArgs, ...compiled('bench/sqlite/baseline')], {
    env: { ...launch.env, DATABASE_URL: `sqlite:${file}` },
    stdout: 'pipe',
  });
  const port = await listeningPort(child, 'the baseline');
  return { name: 'fastify', port, child };
}

function download(port: number): Promise<{ lines: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/tasks.ndjson' }, (res) => {
      let lines = 0;
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on('end', () => resolve({ lines, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

interface Run {
  readonly seconds: number;
  readonly before: number;
  readonly peak: number;
}

/** One export by a server started for it and left idle first, so no run starts from another's peak. */
async function measure(start: (file: string) => Promise<Server>, file: string, run: number): Promise<Run> {
  const server = await start(file);
  try {
    await new Promise((resolveWait) => setTimeout(resolveWait, idleMs));
    const before = memoryMiB(server.child.pid!).rss;
    if (!resetPeak(server.child.pid!)) throw new Error('cannot reset the peak (/proc/<pid>/clear_refs)');
    const t0 = performance.now();
    const { lines } = await download(server.port);
    const seconds = (performance.now() - t0) / 1000;
    if (lines !== total) throw new Error(`${server.name}: ${lines} lines, expected ${total}`);
    const { peak } = memoryMiB(server.child.pid!);
    console.log(
      `  ${server.name} run ${run}: ${seconds.toFixed(2)} s (${Math.round(total / seconds)} rows/s), resident before ${before.toFixed(1)} MiB, peak ${peak.toFixed(1)} MiB`,
    );
    return { seconds, before, peak };
  } finally {
    await stopChild(server.child);
  }
}

/** The rows in the file: the bulk ones and the example's own. */
let total = 0;
buildOnce(['bench/sqlite/baseline']);
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-sqlite-export-'));
try {
  const file = join(dir, 'tasks.db');
  // The first start creates the file and applies the example's migration; the rows come after.
  await stopChild((await serveSvc(file)).child);
  const db = new DatabaseSync(file);
  const started = performance.now();
  db.exec('BEGIN');
  const insert = db.prepare('INSERT INTO tasks (title, done, tags) VALUES (?, ?, \'["bulk","export"]\')');
  for (let i = 0; i < rows; i++) insert.run(`task number ${i}`, i % 2);
  db.exec('COMMIT');
  total = Number((db.prepare('SELECT count(*) AS n FROM tasks').get() as { n: number }).n);
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  copyFileSync(file, `${file}.baseline`);
  console.log(
    `${rows} rows written in ${((performance.now() - started) / 1000).toFixed(1)} s; Node.js ${process.versions.node}; idle ${idleMs / 1000} s before the first export`,
  );

  // Alternated, so a slow phase of the machine falls on both.
  const svc: Run[] = [];
  const fastify: Run[] = [];
  for (let run = 1; run <= runs; run++) {
    svc.push(await measure(serveSvc, file, run));
    fastify.push(await measure(serveBaseline, file, run));
  }
  const peak = (list: Run[]): number => median(list.map((r) => r.peak));
  const rate = (list: Run[]): number => total / median(list.map((r) => r.seconds));
  console.log(
    `\nsummary (medians): svc peak ${peak(svc).toFixed(1)} MiB (${((peak(svc) * 2 ** 20) / 1e6).toFixed(1)} MB; goal < 100 MB), ` +
      `Fastify + node:sqlite ${peak(fastify).toFixed(1)} MiB: ratio ${(peak(svc) / peak(fastify)).toFixed(3)}; ` +
      `rows/s ${Math.round(rate(svc))} vs ${Math.round(rate(fastify))}: ratio ${(rate(svc) / rate(fastify)).toFixed(3)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
