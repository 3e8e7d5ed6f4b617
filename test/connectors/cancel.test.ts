/**
 * The cancellation adapter on both engines: an abort or a time-out mid-query rejects at once,
 * cancels the backend's query on a real server, destroys the client instead of reusing it, and
 * leaves the pool whole (`total`/`idle` checked); an abort while waiting for a client gives the late
 * client back; a session's client is destroyed and its slot freed at once.
 *
 * On PGlite a query runs on the JavaScript thread, so no timer can fire while pg_sleep runs: the
 * abort is seen right after it, before its answer is read, and takes the same path.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setMaxListeners } from 'node:events';
import { classifyConnectorError, ConnectorError, createConnectors, type ConnectorSet, type PostgresHandle } from '../../src/connectors/index.js';
import { closeTargets, eventually, modelOf, postgresConnection, TARGETS } from './helpers.js';

after(closeTargets);

/** Settled: nobody waiting, every open client idle, no more than the pool's size. */
async function poolWhole(db: PostgresHandle): Promise<void> {
  const stats = await eventually(
    () => db.stats(),
    (s) => s.waiting === 0 && s.idle === s.total,
  );
  assert.equal(stats.waiting, 0);
  assert.equal(stats.idle, stats.total, `idle ${stats.idle} of ${stats.total}`);
  assert.ok(stats.total <= stats.max);
  assert.deepEqual((await db.query<{ ok: number }>('SELECT 1 AS ok')).rows, [{ ok: 1 }]);
}

function abortAfter(ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error('client went away')), ms);
  return controller.signal;
}

for (const target of TARGETS) {
  describe(`cancellation on ${target.name}`, { skip: target.skip }, () => {
    let set: ConnectorSet;
    let db: PostgresHandle;
    // Short on PGlite: its sleep blocks the whole process.
    const sleep = target.name === 'pglite' ? 0.3 : 5;

    before(async () => {
      set = createConnectors(modelOf(postgresConnection(await target.fresh(), { pool: { max: 4 } })));
      await set.openAll();
      db = set.handle('postgres', 'main');
    });
    after(() => set.closeAll());

    test('an abort mid-query rejects as cancelled, destroys the client and leaves the pool whole', async () => {
      await db.query('SELECT 1'); // a client exists and is idle
      const before = db.stats().total;
      const started = performance.now();
      const error = await db.query(`SELECT pg_sleep(${sleep})`, { signal: abortAfter(50) }).catch((e: unknown) => e);
      const elapsed = performance.now() - started;
      assert.ok(error instanceof ConnectorError);
      assert.equal(error.category, 'cancelled');
      assert.equal(classifyConnectorError(error), 'cancelled');
      assert.match(error.message, /^connection "postgres" "main": query cancelled \(client went away\)$/);
      if (target.name === 'postgres') {
        assert.ok(elapsed < 1000, `took ${elapsed} ms`);
        // The destroyed client is gone from the pool at once; the cancel request stopped the backend.
        assert.ok(db.stats().total <= before);
        const running = await eventually(
          async () =>
            (await db.query<{ n: number }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'SELECT pg_sleep%'"))
              .rows[0]!.n,
          (n) => n === 0,
        );
        assert.equal(running, 0, 'the cancelled query still runs on the server');
      }
      await poolWhole(db);
    });

    test('timeoutMs cuts a query: a timeout, the client destroyed, the pool whole', async () => {
      const error = await db.query(`SELECT pg_sleep(${sleep})`, { timeoutMs: 50 }).catch((e: unknown) => e);
      assert.ok(error instanceof ConnectorError);
      assert.equal(error.category, 'timeout');
      assert.equal(classifyConnectorError(error), 'timeout');
      assert.match(error.message, /query timed out after 50 ms/);
      await poolWhole(db);
    });

    test('an already aborted signal runs nothing', async () => {
      const controller = new AbortController();
      controller.abort(new Error('gone'));
      const total = db.stats().total;
      await assert.rejects(db.query('SELECT 1', { signal: controller.signal }), /query cancelled \(gone\)/);
      await assert.rejects(db.checkout({ signal: controller.signal }), /cancelled \(gone\)/);
      assert.equal(db.stats().total, total);
    });

    test('an abort while waiting for a client: rejected at once, the late client returned unharmed', async () => {
      const held = await Promise.all(Array.from({ length: db.stats().max }, () => db.checkout()));
      assert.equal(db.stats().idle, 0);
      const waiting = db.query('SELECT 1', { signal: abortAfter(30) });
      await assert.rejects(waiting, /cancelled/);
      assert.equal(db.stats().waiting, 1, 'the pool still owes the aborted caller a client');
      for (const session of held) session.release();
      await poolWhole(db);
    });

    test('a session whose query is aborted is destroyed at once: the slot is free, later queries refused', async () => {
      const session = await db.checkout();
      await session.query('BEGIN');
      const error = await session.query(`SELECT pg_sleep(${sleep})`, { signal: abortAfter(50) }).catch((e: unknown) => e);
      assert.equal((error as ConnectorError).category, 'cancelled');
      assert.equal(session.released, true);
      await assert.rejects(session.query('ROLLBACK'), /the session was released \(.*query cancelled/);
      session.release(); // the caller's teardown still calls it: a no-op
      await poolWhole(db);
    });

    test('a client that replaces a destroyed one starts clean: the same prepared statement and a new transaction work', async () => {
      // On PGlite every connection shares one backend session, so without a reset the replacement
      // would find the destroyed client's statement (42P05) and its open transaction.
      const statement = { name: 'test_replaced', text: 'SELECT $1::int AS n', values: [1] };
      const session = await db.checkout();
      await session.query(statement);
      await session.query('BEGIN');
      await session.query(`SELECT pg_sleep(${sleep})`, { signal: abortAfter(50) }).catch(() => {});
      assert.equal(session.released, true);
      const again = await db.checkout();
      try {
        assert.deepEqual((await again.query(statement)).rows, [{ n: 1 }]);
        await again.query('BEGIN');
        await again.query('COMMIT');
      } finally {
        again.release();
      }
      await poolWhole(db);
    });

    test('20 queries aborted mid-flight leave the pool whole', async () => {
      const controller = new AbortController();
      // One signal for 20 queries: 20 listeners is what this test means to do.
      setMaxListeners(20, controller.signal);
      const queries = Array.from({ length: 20 }, (_, i) =>
        db.query(`SELECT pg_sleep(${target.name === 'pglite' ? 0.01 : 2}), ${i}`, { signal: controller.signal }),
      );
      setTimeout(() => controller.abort(new Error('clients went away')), 50);
      const results = await Promise.allSettled(queries);
      // On PGlite some may have finished before the abort could be seen; none may hang or leak.
      for (const r of results) if (r.status === 'rejected') assert.equal((r.reason as ConnectorError).category, 'cancelled');
      if (target.name === 'postgres') assert.ok(results.every((r) => r.status === 'rejected'));
      await poolWhole(db);
    });
  });
}
