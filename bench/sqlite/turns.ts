/**
 * Statements take turns on the event loop (src/connectors/sqlite/turns.ts): how long can the loop be
 * held by SQLite while many statements are queued? Measured in one process on the connector itself:
 *
 * 1. one statement alone, timed (a `count(*)` over a table of `--rows` rows: a few milliseconds);
 * 2. `--burst` of them submitted at once through the handle, with a 1 ms interval timer running:
 *    the loop's longest delay (perf_hooks' monitorEventLoopDelay, and the timer's longest lateness);
 * 3. the same statements run back to back with node:sqlite directly (what a handler that calls the
 *    driver in a loop, or many handlers in one I/O phase, would do): the loop's longest delay.
 *
 *     /work/main/.cache/node-lines/22/node --import tsx bench/sqlite/turns.ts [--rows 200000 --burst 100]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createConnectors, type SqlHandle } from '../../src/connectors/index.js';
import type { ConnectionModel } from '../../src/model/index.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '200000' }, burst: { type: 'string', default: '100' } } });
const rows = Number(values.rows);
const burst = Number(values.burst);
const QUERY = 'SELECT count(*) AS n FROM big WHERE n % ?1 = 0';

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-sqlite-turns-'));
const position = { line: 1, column: 1, byte: 0 };
const connection: ConnectionModel = {
  kind: 'sqlite',
  name: 'main',
  url: `sqlite:${join(dir, 'turns.db')}`,
  baseDir: dir,
  range: { filename: 'bench.hcl', start: position, end: position },
};
const set = createConnectors({ connections: new Map([['sqlite.main', connection]]) });
await set.openAll();
const db = set.get('sqlite.main') as SqlHandle;

/** The loop's longest delay while `work` runs, two ways: the histogram's max, and a 1 ms timer's worst lateness. */
async function loopDelay(work: () => Promise<unknown> | unknown): Promise<{ histogramMs: number; p99Ms: number; timerMs: number; wallMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 1);
    last = now;
  }, 1);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 20));
  clearInterval(timer);
  histogram.disable();
  return { histogramMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, timerMs: worst, wallMs };
}

try {
  await db.query('CREATE TABLE big (n INTEGER)');
  await db.query({ text: 'WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ?1) INSERT INTO big SELECT n FROM s', values: [rows] });

  const single: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    await db.query({ text: QUERY, values: [7] });
    single.push(performance.now() - t);
  }
  single.sort((a, b) => a - b);
  console.log(`one statement alone: median ${single[10]!.toFixed(2)} ms, longest ${single[19]!.toFixed(2)} ms (${rows} rows scanned)`);

  const queued = await loopDelay(() => Promise.all(Array.from({ length: burst }, (_, i) => db.query({ text: QUERY, values: [i + 2] }))));
  console.log(
    `${burst} statements submitted at once through svc's handle: loop delay p99 ${queued.p99Ms.toFixed(2)} ms, max ${queued.histogramMs.toFixed(2)} ms ` +
      `(1 ms timer late by at most ${queued.timerMs.toFixed(2)} ms), all done in ${queued.wallMs.toFixed(0)} ms`,
  );

  const { DatabaseSync } = (await import('node:sqlite' as string)) as {
    DatabaseSync: new (path: string) => { prepare(sql: string): { get(...v: unknown[]): unknown }; close(): void };
  };
  const direct = new DatabaseSync(join(dir, 'turns.db'));
  const statement = direct.prepare(QUERY);
  const blocking = await loopDelay(() => {
    for (let i = 0; i < burst; i++) statement.get(i + 2);
  });
  direct.close();
  console.log(
    `the same ${burst} statements back to back on node:sqlite directly: loop delay p99 ${blocking.p99Ms.toFixed(2)} ms, max ${blocking.histogramMs.toFixed(2)} ms ` +
      `(1 ms timer late by at most ${blocking.timerMs.toFixed(2)} ms), all done in ${blocking.wallMs.toFixed(0)} ms`,
  );
} finally {
  await set.closeAll();
  rmSync(dir, { recursive: true, force: true });
}
