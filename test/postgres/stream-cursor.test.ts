/**
 * The postgres handle's cursor (src/connectors/postgres/cursor.ts), on embedded PGlite and on the real
 * server: every row of a large result in order with exact values, converted as a plain query's are;
 * batches fetched only as the reader pulls (a sequence the query advances per row is the server's
 * own count of rows produced); the pool client given back exactly once however the cursor ends
 * (exhausted, returned early at a suspended portal, closed while a fetch runs, failed, never read),
 * reused when its portal could be closed, destroyed when a fetch was cut; twenty cursors abandoned
 * at once leave the pool whole; a failing query rejects the first pull; no client in time is
 * `dependency-unavailable`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { ConnectorCategory, ConnectorError, createConnectors, type ConnectorSet, type PostgresHandle, type SqlCursor } from '../../src/connectors/index.js';
import { CURSOR_BATCH_ROWS } from '../../src/connectors/postgres/cursor.js';
import type { SourceTraits } from '../../graph/index.js';
import { closeTargets, eventually, modelOf, postgresConnection, TARGETS } from '../connectors/helpers.js';

after(closeTargets);

/** Waits until nobody waits for a client and every open client is idle; returns the stats. */
async function whole(db: PostgresHandle): Promise<ReturnType<PostgresHandle['stats']>> {
  const stats = await eventually(
    () => db.stats(),
    (s) => s.waiting === 0 && s.idle === s.total,
    5000,
  );
  assert.equal(stats.waiting, 0, `nobody waits: ${JSON.stringify(stats)}`);
  assert.equal(stats.idle, stats.total, `every client is back: ${JSON.stringify(stats)}`);
  return stats;
}

async function take<Row>(cursor: SqlCursor<Row>, n: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (let i = 0; i < n; i++) {
    const r = await cursor.next();
    assert.equal(r.done, false, `row ${i + 1} of ${n}`);
    rows.push(r.value as Row);
  }
  return rows;
}

/** How many rows the server has produced for `fetched` queries: the sequence's value, 0 before any. */
async function produced(db: PostgresHandle): Promise<number> {
  const { rows } = await db.query<{ last_value: number; is_called: boolean }>('SELECT last_value, is_called FROM fetched');
  return rows[0]!.is_called ? rows[0]!.last_value : 0;
}

const FETCHED = "SELECT i, nextval('fetched') AS n FROM generate_series(1, 1000) i";

for (const target of TARGETS) {
  describe(`cursors on ${target.name}`, { skip: target.skip, timeout: 60_000 }, () => {
    let set: ConnectorSet;
    /** A pool of four on the server (one on PGlite, whose pool is always one client). */
    let db: PostgresHandle;
    /** A pool of one client, so the client a cursor used is the one the next call gets. */
    let solo: PostgresHandle;

    before(async () => {
      const url = await target.fresh();
      const connections = [postgresConnection(url, { name: 'db', pool: { max: 4 } })];
      // PGlite's directory can be opened once: there, `db` is already a pool of one.
      if (target.name === 'postgres') connections.push(postgresConnection(url, { name: 'solo', pool: { max: 1 } }));
      set = createConnectors(modelOf(...connections));
      await set.openAll();
      db = set.handle('postgres', 'db');
      solo = target.name === 'postgres' ? set.handle('postgres', 'solo') : db;
      await db.query('CREATE SEQUENCE fetched');
    });
    after(() => set.closeAll());

    const resetFetched = () => db.query("SELECT setval('fetched', 1, false)");

    test('100,000 rows arrive in order with their exact values, and the client goes back reusable', async () => {
      const before = await whole(solo);
      const cursor = await solo.cursor<{ i: number; t: string; big: number | bigint }>(
        "SELECT i, 'row ' || i AS t, i::int8 * 100000000000 AS big FROM generate_series(1, 100000) i",
      );
      let n = 0;
      let wrong = 0;
      for await (const row of cursor) {
        n++;
        const big = BigInt(n) * 100_000_000_000n;
        // Past 2^53 an int8 is a BigInt, below it a number (src/connectors/postgres/values.ts).
        const expected = Number.isSafeInteger(Number(big)) ? Number(big) : big;
        if (row.i !== n || row.t !== `row ${n}` || row.big !== expected) wrong++;
      }
      assert.equal(n, 100_000);
      assert.equal(wrong, 0);
      assert.equal(cursor.released, true);
      // Not destroyed: the pool still has the client it had.
      assert.equal((await whole(solo)).total, before.total);
      assert.equal((await cursor.next()).done, true, 'an exhausted cursor stays done');
    });

    test('pullNow hands out the fetched batch without a promise, and next() fetches on: none skipped or repeated', async () => {
      const cursor = await db.cursor<{ i: number }>('SELECT i FROM generate_series(1, 1200) i');
      const pullNow = (cursor as SourceTraits).pullNow!.bind(cursor);
      assert.equal(pullNow(), undefined, 'nothing is at hand before the first fetch');
      const seen: number[] = [];
      let atHand = 0;
      for (;;) {
        const now = pullNow() as IteratorResult<{ i: number }> | undefined;
        if (now !== undefined) atHand++;
        const step = now ?? (await cursor.next());
        if (step.done) break;
        seen.push(step.value.i);
      }
      assert.deepEqual(
        seen,
        Array.from({ length: 1200 }, (_, k) => k + 1),
      );
      assert.equal(atHand, 1200 - Math.ceil(1200 / CURSOR_BATCH_ROWS), 'every row but the first of each batch was at hand');
      assert.equal(pullNow(), undefined);
      assert.equal(cursor.released, true);
    });

    test('values are converted exactly as a plain query converts them', async () => {
      const text = `SELECT 9007199254740993::int8 AS big, 12::int8 AS small, 12.50::numeric AS price, '\\x01ff'::bytea AS bytes,
        '2024-02-29'::date AS day, '2024-02-29 13:14:15.5'::timestamp AS local, '2024-02-29 13:14:15+02'::timestamptz AS instant,
        '{"a":[1,2]}'::jsonb AS doc, ARRAY[1, 9007199254740993]::int8[] AS bigs, ARRAY['2024-01-01'::date] AS days, NULL::text AS nothing,
        $1::text AS bound, $2::int[] AS ids`;
      const values = ["it's", [1, 2]];
      const plain = await db.query({ text, values });
      const cursor = await db.cursor({ text, values });
      const streamed = [];
      for await (const row of cursor) streamed.push(row);
      assert.deepEqual(streamed, plain.rows);
      assert.equal(typeof streamed[0]!.big, 'bigint');
    });

    test(`batches (${CURSOR_BATCH_ROWS} rows by default) are fetched only when the reader has taken the previous one`, async () => {
      // Each case: open, take `pulled` rows, pause, close; the server produced whole batches only.
      for (const [pulled, batchRows, expected] of [
        [0, undefined, 0],
        [1, undefined, CURSOR_BATCH_ROWS],
        [CURSOR_BATCH_ROWS, undefined, CURSOR_BATCH_ROWS],
        [CURSOR_BATCH_ROWS + 1, undefined, 2 * CURSOR_BATCH_ROWS],
        [1, 100, 100],
        [100, 100, 100],
        [101, 100, 200],
        [250, 100, 300],
      ] as const) {
        await resetFetched();
        const cursor = await db.cursor<{ i: number; n: number }>(FETCHED, batchRows === undefined ? {} : { batchRows });
        const rows = await take(cursor, pulled);
        assert.deepEqual(
          rows.map((r) => r.n),
          rows.map((r) => r.i),
        );
        // A reader that pauses: nothing is read ahead meanwhile.
        await delay(30);
        await cursor.close();
        assert.equal(await produced(db), expected, `${pulled} rows taken, batches of ${batchRows ?? CURSOR_BATCH_ROWS}`);
      }
    });

    test('reading slowly: the server produces the next batch at the pull that needs it (watched from another client)', {
      skip: target.name === 'pglite' && 'PGlite has one client: the cursor holds it',
    }, async () => {
      await resetFetched();
      const cursor = await db.cursor<{ i: number; n: number }>(FETCHED, { batchRows: 100 });
      await delay(50);
      assert.equal(await produced(db), 0, 'nothing before the first pull');
      const seen: number[] = [];
      let taken = 0;
      for (const upTo of [1, 50, 100, 101, 199, 200, 201]) {
        await take(cursor, upTo - taken);
        taken = upTo;
        await delay(20);
        seen.push(await produced(db));
      }
      assert.deepEqual(seen, [100, 100, 100, 200, 200, 200, 300]);
      await cursor.close();
      await whole(db);
    });

    test("return() at a suspended portal closes it (pg-query-stream's destroy: Close, Sync) and the same client goes back clean", async () => {
      const pid = (await solo.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const cursor = await solo.cursor<{ i: number }>('SELECT i AS stream_portal FROM generate_series(1, 10000) i', { batchRows: 100 });
      await take(cursor, 150);
      if (target.name === 'postgres') {
        // A suspended portal keeps its statement (and its implicit transaction) open until Sync: the
        // backend still reports it as running.
        const during = await db.query<{ state: string; query: string }>({ text: 'SELECT state, query FROM pg_stat_activity WHERE pid = $1', values: [pid] });
        assert.equal(during.rows[0]?.state, 'active');
        assert.match(during.rows[0]!.query, /stream_portal/);
      }
      const it = cursor[Symbol.asyncIterator]();
      assert.deepEqual(await it.return!(), { done: true, value: undefined });
      assert.equal(cursor.released, true);
      assert.deepEqual(await cursor.next(), { done: true, value: undefined });
      const stats = await whole(solo);
      assert.equal(stats.total, 1, 'the client was pooled again, not destroyed');
      // The next statement runs on the very same connection, outside any transaction.
      const after = await solo.query<{ pid: number; portals: number }>(
        "SELECT pg_backend_pid() AS pid, (SELECT count(*)::int FROM pg_cursors WHERE name <> '') AS portals",
      );
      assert.deepEqual(after.rows, [{ pid, portals: 0 }]);
      if (target.name === 'postgres') {
        const now = await db.query<{ state: string }>({ text: 'SELECT state FROM pg_stat_activity WHERE pid = $1', values: [pid] });
        assert.equal(now.rows[0]?.state, 'idle');
      }
    });

    test('closed while a fetch runs: the pending pull ends the iteration and the client is destroyed; the pool and the session stay usable', async () => {
      const cursor = await solo.cursor<{ i: number }>('SELECT i FROM generate_series(1, 100000) i', { batchRows: 100 });
      await take(cursor, 100);
      const pending = cursor.next();
      await cursor.close();
      assert.deepEqual(await pending, { done: true, value: undefined });
      assert.equal(cursor.released, true);
      await whole(solo);
      const again = await solo.query<{ portals: number; open: boolean }>(
        "SELECT (SELECT count(*)::int FROM pg_cursors WHERE name <> '') AS portals, now() = statement_timestamp() AS open",
      );
      // No portal left, and the statement ran in a transaction of its own (none was left open).
      assert.deepEqual(again.rows, [{ portals: 0, open: true }]);
    });

    test('closed during a slow fetch: the query is cancelled on the server', {
      skip: target.name === 'pglite' && 'PGlite runs a fetch on the event loop and ignores cancel requests',
    }, async () => {
      const cursor = await solo.cursor<{ i: number }>('SELECT i, CASE WHEN i > 100 THEN pg_sleep(30) END AS stream_slow_fetch FROM generate_series(1, 200) i', {
        batchRows: 100,
      });
      await take(cursor, 100);
      const pending = cursor.next();
      await delay(200);
      const started = performance.now();
      await cursor.close();
      assert.deepEqual(await pending, { done: true, value: undefined });
      assert.ok(performance.now() - started < 1000, 'close does not wait for the fetch');
      const running = await eventually(
        async () =>
          (
            await db.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND strpos(query, 'stream_slow_fetch') > 0 AND pid <> pg_backend_pid()",
            )
          ).rows[0]!.n,
        (n) => n === 0,
        5000,
      );
      assert.equal(running, 0, 'the backend stopped running the query');
      await whole(solo);
      assert.deepEqual((await solo.query('SELECT 1 AS one')).rows, [{ one: 1 }]);
    });

    test('a failing query: the cursor opens, the first pull rejects with the error a plain query gets, the client goes back', async () => {
      const plain = await db.query('SELECT * FROM stream_missing_table').then(
        () => assert.fail('must fail'),
        (e: unknown) => e as ConnectorError,
      );
      const cursor = await db.cursor('SELECT * FROM stream_missing_table');
      // Let the error arrive before anyone pulls: it is kept for the first pull.
      await delay(50);
      const error = await cursor.next().then(
        () => assert.fail('the first pull must reject'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof ConnectorError);
      assert.equal(error.code, '42P01');
      assert.equal(error.category, undefined);
      assert.equal(error.message, plain.message);
      assert.equal(cursor.released, true);
      assert.deepEqual(await cursor.next(), { done: true, value: undefined }, 'rejected once, then done');
      await whole(db);
      assert.deepEqual((await db.query('SELECT 2 AS two')).rows, [{ two: 2 }]);
    });

    test('a row that fails mid-way rejects the pull that meets it; the rows before it arrived', async () => {
      const cursor = await db.cursor<{ q: number }>('SELECT 1 / (i - 150) AS q FROM generate_series(1, 300) i', { batchRows: 100 });
      const rows = await take(cursor, 100);
      assert.equal(rows.length, 100);
      const error = await cursor.next().then(
        () => assert.fail('the second batch must fail'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof ConnectorError);
      assert.equal(error.code, '22012');
      await whole(db);
      assert.deepEqual((await db.query('SELECT 3 AS three')).rows, [{ three: 3 }]);
    });

    test('closed before any pull, twice, and through endWith: one release', async () => {
      let end: ((reason: unknown) => void) | undefined;
      const cursor = await solo.cursor('SELECT 1 AS one', { endWith: (e) => (end = e) });
      await Promise.all([cursor.close(), cursor.close()]);
      end!(undefined);
      await cursor.return!();
      assert.equal(cursor.released, true);
      assert.equal((await whole(solo)).total, 1);
      assert.deepEqual((await solo.query('SELECT 4 AS four')).rows, [{ four: 4 }]);
    });

    test('twenty cursors abandoned at once, in every way, leave the pool whole', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, async (_, k) => {
          if (k % 4 === 3) {
            const cursor = await db.cursor('SELECT * FROM stream_missing_table');
            return cursor.next().then(
              () => 'no error',
              (e: unknown) => (e as ConnectorError).code,
            );
          }
          const cursor = await db.cursor<{ i: number }>('SELECT i AS stream_abandoned FROM generate_series(1, 100000) i', { batchRows: 100 });
          if (k % 4 === 0) {
            // At a suspended portal, after some batches.
            await take(cursor, 1 + k * 37);
            await cursor.return!();
          } else if (k % 4 === 1) {
            // While a fetch runs.
            await take(cursor, 1 + k);
            const pending = cursor.next();
            await cursor.close();
            await pending;
          } else {
            // Never read.
            await cursor.close();
          }
          return cursor.released ? 'released' : 'held';
        }),
      );
      assert.deepEqual(
        outcomes,
        Array.from({ length: 20 }, (_, k) => (k % 4 === 3 ? '42P01' : 'released')),
      );
      await whole(db);
      if (target.name === 'postgres') {
        // Destroyed clients' backends end as their cancel and disconnect arrive.
        const busy = await eventually(
          async () =>
            (
              await db.query<{ state: string }>(
                "SELECT state FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'",
              )
            ).rows,
          (rows) => rows.length === 0,
          5000,
        );
        assert.deepEqual(busy, [], 'no backend left running or in a transaction');
      }
      const after = await Promise.all(Array.from({ length: 4 }, (_, k) => db.query<{ k: number }>({ text: 'SELECT $1::int AS k', values: [k] })));
      assert.deepEqual(
        after.map((r) => r.rows[0]!.k),
        [0, 1, 2, 3],
      );
    });
  });

  describe(`a cursor under statement_timeout on ${target.name}`, {
    skip: target.skip || (target.name === 'pglite' && 'PGlite ignores statement_timeout'),
    timeout: 30_000,
  }, () => {
    let set: ConnectorSet;
    /** 300 ms: what the time-out tests overrun. */
    let db: PostgresHandle;
    /** 10 s: a whole read of 30 fetches stays within it however loaded the machine. */
    let roomy: PostgresHandle;

    before(async () => {
      const url = await target.fresh();
      set = createConnectors(
        modelOf(
          postgresConnection(url, { name: 'db', pool: { max: 2 }, statementTimeoutMs: 300 }),
          postgresConnection(url, { name: 'roomy', pool: { max: 2 }, statementTimeoutMs: 10_000 }),
        ),
      );
      await set.openAll();
      db = set.handle('postgres', 'db');
      roomy = set.handle('postgres', 'roomy');
    });
    after(() => set.closeAll());

    test('read within it, a cursor is not affected', async () => {
      const cursor = await roomy.cursor<{ i: number }>('SELECT i FROM generate_series(1, 3000) i', { batchRows: 100 });
      let n = 0;
      for await (const row of cursor) assert.equal(row.i, ++n);
      assert.equal(n, 3000);
      await whole(roomy);
    });

    test("it bounds the whole stream, the reader's pauses included (counted from Parse to Sync): the next pull is a time-out", async () => {
      const cursor = await db.cursor<{ i: number }>('SELECT i FROM generate_series(1, 300) i', { batchRows: 100 });
      await take(cursor, 100);
      // The server's timer runs while the portal waits for the next Execute.
      await delay(500);
      const error = await cursor.next().then(
        () => assert.fail('the second fetch must time out'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof ConnectorError);
      assert.equal(error.category, ConnectorCategory.timeout);
      await whole(db);
      assert.deepEqual((await db.query('SELECT 7 AS seven')).rows, [{ seven: 7 }]);
    });

    test('a fetch that runs past it fails the pull that waits for it as a time-out', async () => {
      const cursor = await db.cursor<{ i: number }>('SELECT i, CASE WHEN i = 150 THEN pg_sleep(1) END AS nap FROM generate_series(1, 300) i', {
        batchRows: 100,
      });
      await take(cursor, 100);
      const error = await cursor.next().then(
        () => assert.fail('the second fetch must time out'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof ConnectorError);
      assert.equal(error.category, ConnectorCategory.timeout);
      await whole(db);
      assert.deepEqual((await db.query('SELECT 6 AS six')).rows, [{ six: 6 }]);
    });
  });

  describe(`a cursor without a client on ${target.name}`, { skip: target.skip, timeout: 30_000 }, () => {
    let set: ConnectorSet;
    let patientSet: ConnectorSet;
    /** Waits 200 ms for a client: what the first test waits out. */
    let db: PostgresHandle;
    /**
     * Waits 10 s for a client: an end that comes late on a loaded machine still abandons the wait
     * before the pool's own time-out would.
     */
    let patient: PostgresHandle;

    before(async () => {
      set = createConnectors(modelOf(postgresConnection(await target.fresh(), { name: 'db', pool: { max: 1 } })));
      await set.openAll({ acquireTimeoutMs: 200 });
      db = set.handle('postgres', 'db');
      // A database of its own: PGlite's directory can be opened once.
      patientSet = createConnectors(modelOf(postgresConnection(await target.fresh(), { name: 'db', pool: { max: 1 } })));
      await patientSet.openAll({ acquireTimeoutMs: 10_000 });
      patient = patientSet.handle('postgres', 'db');
    });
    after(async () => {
      await set.closeAll();
      await patientSet?.closeAll();
    });

    test('no client within the pool wait: rejects as dependency-unavailable, nothing sent', async () => {
      const session = await db.checkout();
      try {
        const error = await db.cursor('SELECT 1').then(
          () => assert.fail('no client is free'),
          (e: unknown) => e,
        );
        assert.ok(error instanceof ConnectorError);
        assert.equal(error.category, ConnectorCategory.unavailable);
      } finally {
        session.release();
      }
      await whole(db);
    });

    test('endWith while the client is awaited abandons the wait (cancelled); the late client is put back', async () => {
      const session = await patient.checkout();
      try {
        let end: ((reason: unknown) => void) | undefined;
        const opening = patient.cursor('SELECT 1', { endWith: (e) => (end = e) });
        assert.equal(
          await eventually(
            () => patient.stats().waiting,
            (n) => n === 1,
            5000,
          ),
          1,
          'the cursor waits for the client',
        );
        end!(new Error('client gone'));
        const error = await opening.then(
          () => assert.fail('the wait was abandoned'),
          (e: unknown) => e,
        );
        assert.ok(error instanceof ConnectorError);
        assert.equal(error.category, ConnectorCategory.cancelled);
      } finally {
        // Also when the test fails: a client still checked out would hold up closing the pool.
        session.release();
      }
      await whole(patient);
      assert.deepEqual((await patient.query('SELECT 5 AS five')).rows, [{ five: 5 }]);
    });
  });
}
