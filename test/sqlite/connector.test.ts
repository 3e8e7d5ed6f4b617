/**
 * The sqlite connector on its own (src/connectors/sqlite): values both ways, result codes for catch
 * blocks, the read and write connections, transactions holding the write connection, statements
 * taking turns on the loop, cursors, interrupts, and a file locked by another process.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { ConnectorError, type ConnectorSet, type SqlHandle } from '../../src/connectors/index.js';
import { openSqliteSet, scratchDir, SQLITE_ONLY } from './helpers.js';

function sqlite(set: ConnectorSet): SqlHandle {
  return set.get('sqlite.main') as SqlHandle;
}

async function rejection(promise: Promise<unknown>): Promise<ConnectorError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ConnectorError, `a ConnectorError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a rejection');
}

describe('sqlite: values', SQLITE_ONLY, () => {
  let set: ConnectorSet;
  let db: SqlHandle;
  before(async () => {
    set = await openSqliteSet('sqlite::memory:');
    db = sqlite(set);
    await db.query(
      'CREATE TABLE v (id INTEGER PRIMARY KEY, big INTEGER, price NUMERIC, exact TEXT, flag BOOLEAN, doc JSON, raw BLOB, at TEXT, r REAL, any_col)',
    );
  });
  after(() => set.closeAll());

  test('the handle says what it is', () => {
    assert.equal(db.kind, 'sqlite');
    assert.equal(db.embedded, true);
    assert.equal(db.placeholders, 'numbered');
  });

  test('columns become JSON values as docs/sqlite.md says', async () => {
    await db.query({
      text: "INSERT INTO v (big, price, exact, flag, doc, raw, at, r, any_col) VALUES (?1, ?2, ?3, ?4, ?5, X'0102ff', ?6, ?7, ?8)",
      values: [9007199254740993n, 12.5, '12.50', true, { a: [1, 2], b: null }, '2024-05-06T07:08:09.123Z', 0.25, 7],
    });
    const { rows, rowCount, command, fields } = await db.query('SELECT big, price, exact, flag, doc, raw, at, r, any_col, id + 1 AS next FROM v');
    assert.equal(rowCount, 1);
    assert.equal(command, 'SELECT');
    assert.deepEqual(
      fields.map((f) => f.name),
      ['big', 'price', 'exact', 'flag', 'doc', 'raw', 'at', 'r', 'any_col', 'next'],
    );
    assert.deepEqual(rows[0], {
      big: 9007199254740993n,
      price: 12.5,
      exact: '12.50',
      flag: true,
      doc: { a: [1, 2], b: null },
      raw: Buffer.from([1, 2, 255]).toString('base64'),
      at: '2024-05-06T07:08:09.123Z',
      r: 0.25,
      any_col: 7,
      next: 2,
    });
    assert.equal(Object.getPrototypeOf(rows[0]), Object.prototype, 'plain objects, as pg gives');
  });

  test('whole numbers bind as INTEGERs, booleans as 1/0, lists as JSON text, null and undefined as NULL', async () => {
    const { rows } = await db.query({
      text: 'SELECT typeof(?1) AS a, typeof(?2) AS b, ?3 AS c, typeof(?4) AS d, ?5 AS e, ?6 AS f, ?1 AS again',
      values: [3, 1.5, false, null, ['x', 1], undefined],
    });
    assert.deepEqual(rows[0], { a: 'integer', b: 'real', c: 0, d: 'null', e: '["x",1]', f: null, again: 3 });
    // LIMIT takes an integer: a JS number bound as a REAL would be refused.
    const limited = await db.query({ text: 'SELECT value FROM json_each(?1) LIMIT ?2', values: [[1, 2, 3], 2] });
    assert.deepEqual(limited.rows, [{ value: 1 }, { value: 2 }]);
  });

  test('a statement without columns reports the rows it changed', async () => {
    await db.query('INSERT INTO v (big) VALUES (1), (2)');
    const updated = await db.query('UPDATE v SET r = 1 WHERE big IN (1, 2)');
    assert.equal(updated.rowCount, 2);
    assert.equal(updated.command, 'UPDATE');
    assert.deepEqual(updated.rows, []);
    const returned = await db.query('UPDATE v SET r = 2 WHERE big = 1 RETURNING big, r');
    assert.deepEqual(returned.rows, [{ big: 1, r: 2 }]);
    assert.equal(returned.rowCount, 1);
  });
});

describe('sqlite: result codes', SQLITE_ONLY, () => {
  let set: ConnectorSet;
  let db: SqlHandle;
  before(async () => {
    set = await openSqliteSet('sqlite::memory:');
    db = sqlite(set);
    await db.query('CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER CHECK (n > 0))');
    await db.query('CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent (id))');
    await db.query('CREATE TABLE typed (n INTEGER) STRICT');
    await db.query("INSERT INTO parent (id, name, n) VALUES (1, 'a', 1)");
  });
  after(() => set.closeAll());

  const cases: [string, string, readonly string[]][] = [
    ['unique', "INSERT INTO parent (name, n) VALUES ('a', 1)", ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT', '23505']],
    ['primary key', "INSERT INTO parent (id, name, n) VALUES (1, 'b', 1)", ['SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_CONSTRAINT', '23505']],
    ['not null', 'INSERT INTO parent (name, n) VALUES (NULL, 1)', ['SQLITE_CONSTRAINT_NOTNULL', 'SQLITE_CONSTRAINT', '23502']],
    ['check', "INSERT INTO parent (name, n) VALUES ('c', 0)", ['SQLITE_CONSTRAINT_CHECK', 'SQLITE_CONSTRAINT', '23514']],
    ['foreign key', 'INSERT INTO child (parent_id) VALUES (99)', ['SQLITE_CONSTRAINT_FOREIGNKEY', 'SQLITE_CONSTRAINT', '23503']],
  ];
  for (const [what, text, codes] of cases) {
    test(`a ${what} violation carries ${codes.join(', ')}`, async () => {
      const error = await rejection(db.query(text));
      assert.deepEqual(error.codes, codes);
      assert.equal(error.code, codes[2]);
      assert.equal(error.category, undefined, 'no outage: a 500 unless a catch takes it');
      assert.equal(error.connection, 'sqlite.main');
    });
  }

  test("a value a STRICT column refuses is the request's fault (invalid-input)", async () => {
    const error = await rejection(db.query({ text: 'INSERT INTO typed (n) VALUES (?1)', values: ['abc'] }));
    assert.deepEqual(error.codes, ['SQLITE_CONSTRAINT_DATATYPE', 'SQLITE_CONSTRAINT']);
    assert.equal(error.category, 'invalid-input');
  });

  test('a syntax error has the primary code only, and no category', async () => {
    const error = await rejection(db.query('SELEC 1'));
    assert.deepEqual(error.codes, ['SQLITE_ERROR']);
    assert.equal(error.category, undefined);
    assert.match(error.message, /^connection "sqlite" "main": near "SELEC": syntax error/);
  });
});

describe('sqlite: a file database', SQLITE_ONLY, () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>;
  let set: ConnectorSet;
  let db: SqlHandle;
  before(async () => {
    scratch = await scratchDir();
    set = await openSqliteSet('sqlite:nested/dir/app.db', { baseDir: scratch.dir });
    db = sqlite(set);
    await db.query('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');
  });
  after(async () => {
    await set.closeAll();
    await scratch.remove();
  });

  test('is created with its directory, in WAL mode, with a read connection beside the write one', async () => {
    assert.equal(db.url, `sqlite:${join(scratch.dir, 'nested/dir/app.db')}`);
    const { rows } = await db.query('PRAGMA journal_mode');
    assert.deepEqual(rows, [{ journal_mode: 'wal' }]);
    assert.deepEqual(db.stats(), { total: 2, idle: 2, waiting: 0, max: 2 });
  });

  test('a statement that looks like a read but writes runs on the write connection', async () => {
    const text = "WITH n AS (SELECT 'w' AS name) INSERT INTO t (name) SELECT name FROM n RETURNING name";
    assert.deepEqual((await db.query(text)).rows, [{ name: 'w' }]);
    assert.deepEqual((await db.query(text)).rows, [{ name: 'w' }]);
    assert.equal((await db.query("SELECT count(*) AS n FROM t WHERE name = 'w'")).rows[0]!.n, 2);
    await db.query("DELETE FROM t WHERE name = 'w'");
  });

  test('a transaction holds the write connection: writes wait for it, reads do not and see the last commit', async () => {
    const session = await db.checkout();
    await session.query('BEGIN');
    await session.query({ text: 'INSERT INTO t (name) VALUES (?1)', values: ['inside'] });
    let written = false;
    const write = db.query({ text: 'INSERT INTO t (name) VALUES (?1)', values: ['outside'] }).then((r) => {
      written = true;
      return r;
    });
    const read = await db.query("SELECT count(*) AS n FROM t WHERE name = 'inside'");
    assert.equal(read.rows[0]!.n, 0, 'the read saw the last commit, not the open transaction');
    assert.equal(written, false, 'the write waits for the transaction');
    assert.equal(db.stats().waiting, 1);
    assert.equal(db.stats().idle, 1);
    await session.query('COMMIT');
    session.release();
    assert.equal((await write).rowCount, 1);
    const names = (await db.query("SELECT name FROM t WHERE name IN ('inside', 'outside') ORDER BY id")).rows.map((r) => r.name);
    assert.deepEqual(names, ['inside', 'outside']);
  });

  test('a session released inside its transaction rolls it back', async () => {
    const session = await db.checkout();
    await session.query('BEGIN');
    await session.query("INSERT INTO t (name) VALUES ('abandoned')");
    session.release(true);
    assert.equal(session.released, true);
    await rejection(session.query('SELECT 1'));
    const { rows } = await db.query("SELECT count(*) AS n FROM t WHERE name = 'abandoned'");
    assert.equal(rows[0]!.n, 0);
    // The write connection is free again.
    assert.equal((await db.query("INSERT INTO t (name) VALUES ('after')")).rowCount, 1);
  });

  test('a failed COMMIT (a deferred foreign key) leaves the transaction to the release, which rolls it back', async () => {
    await db.query('CREATE TABLE p (id INTEGER PRIMARY KEY)');
    await db.query('CREATE TABLE c (p_id INTEGER REFERENCES p (id) DEFERRABLE INITIALLY DEFERRED)');
    const session = await db.checkout();
    await session.query('BEGIN');
    await session.query('INSERT INTO c (p_id) VALUES (42)');
    const error = await rejection(session.query('COMMIT'));
    assert.ok(error.codes?.includes('23503'), `a foreign key failure: ${error.codes?.join(', ')}`);
    session.release(true);
    assert.equal((await db.query('SELECT count(*) AS n FROM c')).rows[0]!.n, 0);
    assert.equal((await db.query('INSERT INTO p (id) VALUES (1)')).rowCount, 1, 'the write connection is usable');
  });

  test('a statement waiting behind a transaction is abandoned by its signal, and the line moves on', async () => {
    const session = await db.checkout();
    await session.query('BEGIN');
    const controller = new AbortController();
    const waiting = db.query("INSERT INTO t (name) VALUES ('never')", { signal: controller.signal });
    const next = db.query("INSERT INTO t (name) VALUES ('later')");
    controller.abort(new Error('client gone'));
    const error = await rejection(waiting);
    assert.equal(error.category, 'cancelled');
    await session.query('ROLLBACK');
    session.release();
    assert.equal((await next).rowCount, 1);
    assert.equal((await db.query("SELECT count(*) AS n FROM t WHERE name = 'never'")).rows[0]!.n, 0);
  });

  test('a cursor reads a batch per pull from the read connection; writes go on meanwhile', async () => {
    await db.query('CREATE TABLE many (n INTEGER)');
    await db.query('WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 5) INSERT INTO many (n) SELECT n FROM s');
    const cursor = await db.cursor({ text: 'SELECT n FROM many WHERE n > ?1 ORDER BY n', values: [0] }, { batchRows: 2 });
    const seen: unknown[] = [];
    for await (const row of cursor) {
      seen.push(row.n);
      // A write while the cursor is open: it does not wait for the stream.
      if (row.n === 2) assert.equal((await db.query('INSERT INTO many (n) VALUES (100)')).rowCount, 1);
    }
    assert.deepEqual(seen, [1, 2, 3, 4, 5], 'the snapshot the cursor started with');
    assert.equal(cursor.released, true);
  });

  test('a cursor closed half-way lets its statement go', async () => {
    const cursor = await db.cursor('SELECT n FROM many ORDER BY n', { batchRows: 2 });
    assert.deepEqual((await cursor.next()).value, { n: 1 });
    await cursor.close();
    assert.equal(cursor.released, true);
    assert.equal((await cursor.next()).done, true);
  });

  test('a cursor whose statement fails rejects its first pull', async () => {
    const cursor = await db.cursor('SELECT nope FROM many');
    const error = await rejection(cursor.next());
    assert.deepEqual(error.codes, ['SQLITE_ERROR']);
    assert.equal(cursor.released, true);
  });
});

describe('sqlite: statements take turns on the loop', SQLITE_ONLY, () => {
  let set: ConnectorSet;
  let db: SqlHandle;
  before(async () => {
    set = await openSqliteSet('sqlite::memory:');
    db = sqlite(set);
  });
  after(() => set.closeAll());

  test('between two queued statements past the turn budget the loop runs (I/O, timers, immediates)', async () => {
    // Each statement counts to 300,000: milliseconds, past the 1 ms a turn may spend on statements.
    const slow = 'WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 300000) SELECT count(*) AS n FROM s WHERE n > ?1';
    const order: string[] = [];
    const queries = Array.from({ length: 4 }, (_, i) => db.query({ text: slow, values: [i] }).then(() => order.push(`q${i}`)));
    setImmediate(() => order.push('loop'));
    await Promise.all(queries);
    // The first ran at once; the loop's turn came before the last of the others.
    assert.equal(order[0], 'q0');
    assert.ok(order.indexOf('loop') < order.indexOf('q3'), order.join(' '));
  });

  test('on an in-memory database a cursor holds the only connection until it ends', async () => {
    await db.query('CREATE TABLE m (n INTEGER)');
    await db.query('INSERT INTO m (n) VALUES (1), (2), (3)');
    const cursor = await db.cursor('SELECT n FROM m ORDER BY n', { batchRows: 1 });
    assert.deepEqual((await cursor.next()).value, { n: 1 });
    let done = false;
    const write = db.query('INSERT INTO m (n) VALUES (4)').then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(done, false);
    await cursor.close();
    await write;
    assert.equal((await db.query('SELECT count(*) AS n FROM m')).rows[0]!.n, 4);
  });

  test('a closed connection refuses calls as unavailable', async () => {
    const other = await openSqliteSet('sqlite::memory:', { name: 'main' });
    const handle = sqlite(other);
    await other.closeAll();
    const error = await rejection(handle.query('SELECT 1'));
    assert.equal(error.category, 'dependency-unavailable');
  });
});

/** A process holding the database's write lock (BEGIN IMMEDIATE) until told to commit on stdin. */
async function lockHolder(path: string): Promise<{ child: ChildProcess; commit(): Promise<void> }> {
  const script = `
    const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(${JSON.stringify(path)});
    db.exec('BEGIN IMMEDIATE');
    db.exec("INSERT INTO t (name) VALUES ('from the other process')");
    process.stdout.write('locked\\n');
    process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.stdout.write('committed\\n'); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['--no-warnings', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  while (!out.includes('locked')) await once(child.stdout!, 'data');
  return {
    child,
    async commit() {
      child.stdin!.write('go\n');
      await once(child, 'exit');
    },
  };
}

describe('sqlite: a file locked by another process', SQLITE_ONLY, () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>;
  before(async () => {
    scratch = await scratchDir();
  });
  after(() => scratch.remove());

  test('a write waits for the lock without blocking the loop, then runs', async () => {
    const set = await openSqliteSet('sqlite:wait.db', { baseDir: scratch.dir, busyTimeoutMs: 30_000 });
    const db = sqlite(set);
    try {
      await db.query('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');
      const holder = await lockHolder(join(scratch.dir, 'wait.db'));
      let settled = false;
      const write = db.query("INSERT INTO t (name) VALUES ('mine')").finally(() => (settled = true));
      // The loop keeps turning while the write waits: timers fire, reads are answered.
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 1);
      while (ticks < 5) await new Promise((resolve) => setTimeout(resolve, 1));
      assert.equal((await db.query('SELECT count(*) AS n FROM t')).rows[0]!.n, 0, 'a read is answered meanwhile (WAL)');
      assert.equal(settled, false, 'the write is still waiting for the lock');
      clearInterval(ticker);
      await holder.commit();
      assert.equal((await write).rowCount, 1);
      const names = (await db.query('SELECT name FROM t ORDER BY id')).rows.map((r) => r.name);
      assert.deepEqual(names, ['from the other process', 'mine']);
    } finally {
      await set.closeAll();
    }
  });

  test('past busy_timeout the statement fails as the database unavailable (SQLITE_BUSY)', async () => {
    const set = await openSqliteSet('sqlite:short.db', { baseDir: scratch.dir, busyTimeoutMs: 50 });
    const db = sqlite(set);
    try {
      await db.query('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');
      const holder = await lockHolder(join(scratch.dir, 'short.db'));
      try {
        const error = await rejection(db.query("INSERT INTO t (name) VALUES ('mine')"));
        assert.equal(error.category, 'dependency-unavailable');
        assert.deepEqual(error.codes, ['SQLITE_BUSY']);
        assert.match(error.message, /stayed locked by another connection/);
        // A transaction's BEGIN IMMEDIATE meets the same lock.
        const session = await db.checkout();
        const begin = await rejection(session.query('BEGIN'));
        assert.equal(begin.category, 'dependency-unavailable');
        session.release(true);
      } finally {
        await holder.commit();
      }
      assert.equal((await db.query("INSERT INTO t (name) VALUES ('mine')")).rowCount, 1, 'free again once the other process committed');
    } finally {
      await set.closeAll();
    }
  });
});
