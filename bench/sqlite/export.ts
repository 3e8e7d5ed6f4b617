/**
 * A 1,000,000-row ndjson export from SQLite (issue 32: peak resident memory under 100 MB):
 * examples/sqlite-crud's `GET /tasks.ndjson` (`stream = true`: rows stepped a batch per turn of the
 * loop, read as the client takes them) over a database file of a million tasks, read whole by a
 * client that counts lines. Reported: the time, rows per second, and svc's peak resident memory
 * (VmHWM, the kernel's own high-water mark) against its resident memory before the request.
 *
 *     npm run build && /work/main/.cache/node-lines/22/node --import tsx bench/sqlite/export.ts [--rows 1000000]
 */
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, memoryMiB, spawnNode, stopChild, SVC_LAUNCH, svcServe, waitForPort } from '../lib/procs.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000000' } } });
const rows = Number(values.rows);

interface Database {
  exec(sql: string): void;
  prepare(sql: string): { run(...values: unknown[]): unknown };
  close(): void;
}
const { DatabaseSync } = (await import('node:sqlite' as string)) as { DatabaseSync: new (path: string) => Database };

async function serve(url: string): Promise<{ port: number; child: ReturnType<typeof spawnNode> }> {
  const port = await freePort();
  const child = spawnNode(svcServe('examples/sqlite-crud', port), { env: { ...SVC_LAUNCH.env, DATABASE_URL: url } });
  await waitForPort(port, child, 'svc');
  return { port, child };
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

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-sqlite-export-'));
try {
  const file = join(dir, 'tasks.db');
  // The first start creates the file and applies the example's migration; the rows come after.
  const first = await serve(`sqlite:${file}`);
  await stopChild(first.child);
  const db = new DatabaseSync(file);
  const started = performance.now();
  db.exec('BEGIN');
  const insert = db.prepare('INSERT INTO tasks (title, done, tags) VALUES (?, ?, \'["bulk","export"]\')');
  for (let i = 0; i < rows; i++) insert.run(`task number ${i}`, i % 2);
  db.exec('COMMIT');
  db.close();
  console.log(`${rows} rows written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const { port, child } = await serve(`sqlite:${file}`);
  try {
    const before = memoryMiB(child.pid!);
    const t0 = performance.now();
    const { lines, bytes } = await download(port);
    const seconds = (performance.now() - t0) / 1000;
    const after = memoryMiB(child.pid!);
    console.log(
      `GET /tasks.ndjson: ${lines} lines, ${(bytes / 2 ** 20).toFixed(0)} MiB in ${seconds.toFixed(1)} s (${Math.round(lines / seconds)} rows/s); ` +
        `svc resident before ${before.rss.toFixed(0)} MiB, peak ${after.peak.toFixed(0)} MiB (goal < 100 MB), after ${after.rss.toFixed(0)} MiB`,
    );
  } finally {
    await stopChild(child);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
