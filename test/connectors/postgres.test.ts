/**
 * The postgres kind on both engines: queries and prepared statements, the pool's sizing, SQL errors
 * that keep their SQLSTATE for `catch` blocks, sessions for transactions, statement_timeout, and the
 * persistent PGlite directory.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, relative } from 'node:path';
import { classifyConnectorError, ConnectorError, createConnectors, type ConnectorSet, type PostgresHandle } from '../../src/connectors/index.js';
import { closeTargets, eventually, modelOf, postgresConnection, recordingLogger, TARGETS } from './helpers.js';

after(closeTargets);

for (const target of TARGETS) {
  describe(`postgres on ${target.name}`, { skip: target.skip }, () => {
    let set: ConnectorSet;
    let db: PostgresHandle;
    const logger = recordingLogger();

    before(async () => {
      set = createConnectors(modelOf(postgresConnection(await target.fresh(), { pool: { max: 3 }, statementTimeoutMs: 300 })));
      await set.openAll({ logger });
      db = set.handle('postgres', 'main');
      await db.query('CREATE TABLE users (id serial PRIMARY KEY, email text UNIQUE NOT NULL)');
    });
    after(() => set.closeAll());

    test('a query with bound values, and a named statement run twice', async () => {
      const r = await db.query<{ sum: number; s: string }>({ text: 'SELECT $1::int + $2::int AS sum, $3::text AS s', values: [2, 3, "it's"] });
      assert.deepEqual(r.rows, [{ sum: 5, s: "it's" }]);
      assert.equal(r.command, 'SELECT');
      assert.equal(r.rowCount, 1);
      assert.deepEqual(
        r.fields.map((f) => f.name),
        ['sum', 's'],
      );
      for (const n of [1, 2]) {
        const named = await db.query<{ n: number }>({ name: 'test_named', text: 'SELECT $1::int AS n', values: [n] });
        assert.deepEqual(named.rows, [{ n }]);
      }
    });

    test('the pool is sized from the model (one client on PGlite, whose session is shared)', async () => {
      const stats = db.stats();
      assert.equal(stats.max, target.name === 'pglite' ? 1 : 3);
      assert.equal(stats.waiting, 0);
      if (target.name === 'pglite') {
        assert.ok(logger.lines.some((l) => l.level === 'warn' && /one client/.test(l.message) && l.fields.requested === 3));
      }
    });

    test('an SQL error keeps its SQLSTATE and has no outage category; the client goes back whole', async () => {
      await db.query({ text: 'INSERT INTO users (email) VALUES ($1)', values: ['a@example.com'] });
      const duplicate = await db.query({ text: 'INSERT INTO users (email) VALUES ($1)', values: ['a@example.com'] }).then(
        () => assert.fail('a duplicate must fail'),
        (e: unknown) => e,
      );
      assert.ok(duplicate instanceof ConnectorError);
      assert.equal(duplicate.code, '23505');
      assert.equal(duplicate.category, undefined);
      assert.equal(classifyConnectorError(duplicate), undefined);
      assert.match(duplicate.message, /^connection "postgres" "main": duplicate key value violates unique constraint/);
      const syntax = await db.query('SELEC 1').catch((e: unknown) => e);
      assert.equal((syntax as ConnectorError).code, '42601');
      const stats = await eventually(
        () => db.stats(),
        (s) => s.idle === s.total,
      );
      assert.equal(stats.idle, stats.total);
    });

    test('a pool exhausted past its wait is unavailable (a 503), and whole again once clients return', async () => {
      const exhausted = createConnectors(modelOf(postgresConnection(await target.fresh(), { pool: { max: 1 } })));
      await exhausted.openAll({ acquireTimeoutMs: 100 });
      const small = exhausted.handle('postgres', 'main');
      const held = await small.checkout();
      const started = performance.now();
      const error = await small.query('SELECT 1').catch((e: unknown) => e);
      assert.ok(performance.now() - started < 1000);
      assert.ok(error instanceof ConnectorError);
      assert.equal(error.category, 'dependency-unavailable');
      assert.match(error.message, /timeout exceeded when trying to connect/);
      held.release();
      assert.deepEqual((await small.query<{ ok: number }>('SELECT 1 AS ok')).rows, [{ ok: 1 }]);
      const stats = small.stats();
      assert.equal(stats.idle, stats.total);
      await exhausted.closeAll();
    });

    test('a session runs statements on one client; ROLLBACK undoes them; release is once', async () => {
      const session = await db.checkout();
      await session.query('BEGIN');
      await session.query({ text: 'INSERT INTO users (email) VALUES ($1)', values: ['rolled@back'] });
      const seen = await session.query<{ n: number }>({ text: 'SELECT count(*) AS n FROM users WHERE email = $1', values: ['rolled@back'] });
      assert.equal(seen.rows[0]!.n, 1, 'count(*) is an int8: a number (src/connectors/postgres/values.ts)');
      await session.query('ROLLBACK');
      session.release();
      session.release();
      assert.equal(session.released, true);
      await assert.rejects(session.query('SELECT 1'), /the session was released/);
      const after = await db.query<{ n: number }>({ text: 'SELECT count(*) AS n FROM users WHERE email = $1', values: ['rolled@back'] });
      assert.equal(after.rows[0]!.n, 0);
      const stats = db.stats();
      assert.equal(stats.idle, stats.total);
    });

    test('statement_timeout cuts a runaway query: a timeout, SQLSTATE 57014, and the client stays usable', {
      skip: target.name === 'pglite' ? 'PGlite runs a query on the JavaScript thread: no timer fires inside it, so statement_timeout has no effect' : false,
    }, async () => {
      const started = performance.now();
      const error = await db.query('SELECT pg_sleep(5)').catch((e: unknown) => e);
      assert.ok(performance.now() - started < 3000);
      assert.ok(error instanceof ConnectorError);
      assert.equal(error.code, '57014');
      assert.equal(error.category, 'timeout');
      assert.equal(classifyConnectorError(error), 'timeout');
      assert.deepEqual((await db.query<{ one: number }>('SELECT 1 AS one')).rows, [{ one: 1 }]);
      const stats = db.stats();
      assert.equal(stats.idle, stats.total);
    });

    test("the model's statement_timeout reaches the server", { skip: target.name === 'pglite' ? 'PGlite ignores start-up parameters' : false }, async () => {
      const r = await db.query<{ statement_timeout: string }>('SHOW statement_timeout');
      assert.equal(r.rows[0]!.statement_timeout, '300ms');
    });
  });
}

describe('pglite:<dir>', () => {
  test("persists across reopening, relative to the declaring file's directory", async () => {
    // A fresh directory (a copy of one made once, which is faster than creating one), named relatively.
    const dir = (await TARGETS[0]!.fresh()).slice('pglite:'.length);
    const baseDir = dirname(dirname(dir));
    const open = async (): Promise<ConnectorSet> => {
      const set = createConnectors(modelOf(postgresConnection(`pglite:${relative(baseDir, dir)}`, { baseDir })));
      await set.openAll();
      return set;
    };
    const first = await open();
    assert.equal(first.handle('postgres', 'main').url, `pglite:${dir}`);
    await first.handle('postgres', 'main').query("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')");
    await first.closeAll();
    const second = await open();
    assert.deepEqual((await second.handle('postgres', 'main').query('SELECT v FROM kept')).rows, [{ v: 'still here' }]);
    await second.closeAll();
  });
});
