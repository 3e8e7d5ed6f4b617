/**
 * The mysql handle on its own (no HTTP): the pool's wait bounded (an exhausted pool answers
 * dependency-unavailable, and the connection that comes late goes back whole), a caller's signal
 * abandoning the wait or killing a running statement, twenty interrupted statements leaving the pool
 * whole, a session refusing statements after its connection was interrupted, and a cursor read in
 * part, closed, and its connection discarded while the pool stays usable. Calls before open and after
 * close fail clearly.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { ConnectorError, createConnectors, type ConnectorSet } from '../../src/connectors/index.js';
import type { ConnectionModel } from '../../src/model/index.js';
import { modelOf } from '../connectors/helpers.js';
import { dropDatabases, eventually, freshDatabase, marker, NO_MYSQL, runningStatements } from './helpers.js';

const sets: ConnectorSet[] = [];
after(async () => {
  for (const set of sets.splice(0)) await set.closeAll().catch(() => {});
  await dropDatabases();
});

function mysqlConnection(url: string, max: number): ConnectionModel {
  const position = { line: 1, column: 1, byte: 0 };
  return { kind: 'mysql', name: 'main', url, baseDir: tmpdir(), range: { filename: 'test.hcl', start: position, end: position }, pool: { max } };
}

async function open(url: string, max: number, acquireTimeoutMs = 10_000) {
  const set = createConnectors(modelOf(mysqlConnection(url, max)));
  sets.push(set);
  await set.openAll({ acquireTimeoutMs });
  return set.handle('mysql', 'main');
}

const whole = (db: Awaited<ReturnType<typeof open>>) =>
  eventually(
    () => db.stats(),
    (s) => s.waiting === 0 && s.idle === s.total,
    5000,
  );

describe('the mysql handle', { skip: NO_MYSQL }, () => {
  test('before open and after close, calls fail as dependency-unavailable, never throw', async () => {
    const url = await freshDatabase();
    const set = createConnectors(modelOf(mysqlConnection(url, 2)));
    const db = set.handle('mysql', 'main');
    await assert.rejects(db.query('SELECT 1'), (e: unknown) => e instanceof ConnectorError && e.category === 'dependency-unavailable');
    await set.openAll();
    assert.deepEqual((await db.query('SELECT 1 AS one')).rows, [{ one: 1 }]);
    await set.closeAll();
    await assert.rejects(db.query('SELECT 1'), (e: unknown) => e instanceof ConnectorError && e.category === 'dependency-unavailable');
    assert.deepEqual(db.stats(), { total: 0, idle: 0, waiting: 0, max: 0 });
  });

  test('an exhausted pool: the wait is bounded (503), the late connection goes back whole', async () => {
    const mark = marker();
    const url = await freshDatabase();
    const db = await open(url, 1, 300);
    const holder = db.query(`SELECT SLEEP(1) AS ${mark}`);
    await assert.rejects(db.query('SELECT 2'), (e: unknown) => {
      assert.ok(e instanceof ConnectorError);
      assert.equal(e.category, 'dependency-unavailable');
      assert.match(e.message, /no database connection free within 300 ms \(pool of 1\)/);
      return true;
    });
    await holder;
    const stats = await whole(db);
    assert.deepEqual(stats, { total: 1, idle: 1, waiting: 0, max: 1 });
    assert.deepEqual((await db.query('SELECT 3 AS three')).rows, [{ three: 3 }]);
  });

  test("a caller's signal abandons the wait for a connection, or kills the running statement", async () => {
    const mark = marker();
    const url = await freshDatabase();
    const db = await open(url, 1);
    const running = new AbortController();
    const slow = db.query(`SELECT SLEEP(30) AS ${mark}`, { signal: running.signal });
    await eventually(
      async () => (await runningStatements(url, mark, 0)).length,
      (n) => n === 1,
      5000,
    );
    const waiting = new AbortController();
    const queued = db.query('SELECT 1', { signal: waiting.signal });
    waiting.abort(new Error('the client left'));
    await assert.rejects(queued, (e: unknown) => e instanceof ConnectorError && e.category === 'cancelled');
    running.abort(new Error('the client left'));
    await assert.rejects(slow, (e: unknown) => e instanceof ConnectorError && e.category === 'cancelled');
    assert.deepEqual(await runningStatements(url, mark), [], 'killed on the server');
    await whole(db);
    assert.deepEqual((await db.query('SELECT 1 AS one')).rows, [{ one: 1 }]);
  });

  test('twenty statements timed out at once leave the pool whole and nothing running', async () => {
    const mark = marker();
    const url = await freshDatabase();
    const db = await open(url, 5);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => db.query(`SELECT SLEEP(30) AS ${mark}`, { timeoutMs: 150 })));
    for (const r of results) {
      assert.equal(r.status, 'rejected');
      assert.equal(((r as PromiseRejectedResult).reason as ConnectorError).category, 'timeout');
    }
    assert.deepEqual(await runningStatements(url, mark), []);
    const stats = await whole(db);
    assert.ok(stats.total <= 5, JSON.stringify(stats));
  });

  test('a session whose statement was interrupted is released and refuses the next, saying why', async () => {
    const url = await freshDatabase();
    const db = await open(url, 2);
    const session = await db.checkout();
    await session.query('BEGIN');
    await assert.rejects(session.query('SELECT SLEEP(30)', { timeoutMs: 100 }), (e: unknown) => e instanceof ConnectorError && e.category === 'timeout');
    assert.equal(session.released, true);
    await assert.rejects(session.query('COMMIT'), /the session was released .*timed out/);
    session.release();
    await whole(db);
  });

  test('a cursor read in part and closed: the statement killed, the connection discarded, the pool usable', async () => {
    const url = await freshDatabase();
    const db = await open(url, 2);
    const cursor = await db.cursor({ text: 'SELECT seq AS n FROM seq_1_to_1000000', values: [] }, { batchRows: 100 });
    const first: unknown[] = [];
    for await (const row of cursor) {
      first.push(row);
      if (first.length === 250) break;
    }
    assert.deepEqual(first.at(-1), { n: 250 });
    assert.equal(cursor.released, true);
    assert.deepEqual(await runningStatements(url, 'seq_1_to_1000000'), []);
    await whole(db);
    const all: unknown[] = [];
    for await (const row of await db.cursor({ text: 'SELECT seq AS n FROM seq_1_to_1000 WHERE seq > ?', values: [995] })) all.push(row);
    assert.deepEqual(all, [{ n: 996 }, { n: 997 }, { n: 998 }, { n: 999 }, { n: 1000 }]);
    const failing = await db.cursor({ text: 'SELECT * FROM no_such_table', values: [] });
    await assert.rejects(failing.next(), (e: unknown) => e instanceof ConnectorError && e.codes?.includes('1146') === true);
    await whole(db);
  });
});
