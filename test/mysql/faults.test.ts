/**
 * Faults on MariaDB: a server killed (SIGKILL) under a short, bounded load answers 503 problems
 * while it is down and serves again once it is back, without restarting svc; clients that hang up
 * mid-statement get their statements killed and leave the pool whole; the connection's
 * statement_timeout (max_statement_time) is a 504; and the error classification behind those
 * answers (errors.ts), including the catch codes of each constraint class.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { classifyMysqlError, toConnectorError } from '../../src/connectors/mysql/errors.js';
import { listenLocal } from '../http/stream-helpers.js';
import { dropDatabases, eventually, freshDatabase, marker, NO_MYSQL, ownMariadb, poolWhole, runningStatements, serve } from './helpers.js';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
  await dropDatabases();
});

const MANIFEST = (mark: string, extra = ''): string => `
connection "mysql" "db" {
  url = "{{DB}}"
  ${extra}
  pool {
    max = 4
  }
}

endpoint "GET /one" {
  pipeline {
    sql "one" {
      query = "SELECT 1 AS one"
    }
    respond {
      body = steps.one.row
    }
  }
}

endpoint "POST /marks" {
  pipeline {
    transaction "mark" {
      connection = connection.mysql.db
      sql "insert" {
        query = "INSERT INTO marks (note) VALUES ('x')"
      }
    }
    respond {
      status = 201
      body   = "ok"
    }
  }
}

endpoint "GET /sleep" {
  request {
    query {
      field "s" {
        type    = number
        default = 30
      }
    }
  }
  pipeline {
    sql "sleep" {
      query = "SELECT SLEEP(@s) AS ${mark}"
      args  = { s = ctx.request.query.s }
    }
    respond {
      body = steps.sleep.row
    }
  }
}
`;

function assertProblem(r: { statusCode: number; body: string; headers: Record<string, unknown> }, status: number, type: string): void {
  assert.equal(r.statusCode, status, r.body);
  assert.match(r.headers['content-type'] as string, /^application\/problem\+json/);
  const { step: _step, instance: _instance, ...body } = JSON.parse(r.body) as Record<string, unknown>;
  assert.deepEqual(body, { type: `urn:svc:error:${type}`, title: status === 503 ? 'Service Unavailable' : 'Gateway Timeout', status });
}

test('server errors keep their SQLSTATE as code, and their number, name and portable SQLSTATE as codes', () => {
  const server = (errno: number, code: string, sqlState: string): Error => Object.assign(new Error(code), { errno, code, sqlState, sqlMessage: code });
  const cases: [Error, string[], string | undefined][] = [
    [server(1062, 'ER_DUP_ENTRY', '23000'), ['1062', 'ER_DUP_ENTRY', '23505'], undefined],
    [server(1452, 'ER_NO_REFERENCED_ROW_2', '23000'), ['1452', 'ER_NO_REFERENCED_ROW_2', '23503'], undefined],
    [server(1451, 'ER_ROW_IS_REFERENCED_2', '23000'), ['1451', 'ER_ROW_IS_REFERENCED_2', '23503'], undefined],
    [server(1048, 'ER_BAD_NULL_ERROR', '23000'), ['1048', 'ER_BAD_NULL_ERROR', '23502'], undefined],
    [server(3819, 'ER_CHECK_CONSTRAINT_VIOLATED', 'HY000'), ['3819', 'ER_CHECK_CONSTRAINT_VIOLATED', '23514'], undefined],
    [server(4025, 'ER_CONSTRAINT_FAILED', '23000'), ['4025', 'ER_CONSTRAINT_FAILED', '23514'], undefined],
    [server(1146, 'ER_NO_SUCH_TABLE', '42S02'), ['1146', 'ER_NO_SUCH_TABLE'], undefined],
    [server(1406, 'ER_DATA_TOO_LONG', '22001'), ['1406', 'ER_DATA_TOO_LONG'], 'invalid-input'],
    [server(1969, 'ER_STATEMENT_TIMEOUT', '70100'), ['1969', 'ER_STATEMENT_TIMEOUT'], 'timeout'],
    [server(1040, 'ER_CON_COUNT_ERROR', '08004'), ['1040', 'ER_CON_COUNT_ERROR'], 'dependency-unavailable'],
  ];
  for (const [cause, codes, category] of cases) {
    const error = toConnectorError(cause, 'mysql.db', 'connection "mysql" "db"');
    assert.equal(error.code, (cause as { sqlState?: string }).sqlState);
    assert.deepEqual(error.codes, codes);
    assert.equal(error.category, category, String(cause));
  }
  // Socket and protocol failures are outages, never an SQL error a catch could take.
  for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'PROTOCOL_CONNECTION_LOST']) {
    const error = toConnectorError(Object.assign(new Error(code), { code, ...(code.startsWith('E') ? { syscall: 'connect' } : {}) }), 'mysql.db', 'l');
    assert.equal(error.category, 'dependency-unavailable', code);
    assert.equal(error.code, undefined);
    assert.equal(error.codes, undefined);
  }
  assert.equal(classifyMysqlError(Object.assign(new Error('lost'), { fatal: true })), 'dependency-unavailable');
  assert.equal(classifyMysqlError(new Error('Pool is closed.')), 'dependency-unavailable');
  assert.equal(classifyMysqlError(new Error('anything else')), undefined);
});

describe('faults on MariaDB', { skip: NO_MYSQL, timeout: 60_000 }, () => {
  test('the server is killed under load and comes back: 503 problems meanwhile, then served again without restarting svc', async (t) => {
    let own: Awaited<ReturnType<typeof ownMariadb>>;
    try {
      own = await ownMariadb();
    } catch (error) {
      t.skip(`cannot start a MariaDB server of its own: ${(error as Error).message}`);
      return;
    }
    cleanups.push(() => own.remove());
    const mark = marker();
    const s = await serve(MANIFEST(mark), own.url, { requestTimeoutMs: 10_000 });
    cleanups.push(() => s.close());
    await s.db.query('CREATE TABLE marks (id INT AUTO_INCREMENT PRIMARY KEY, note VARCHAR(20) NOT NULL)');
    assert.equal((await s.app.inject({ method: 'GET', url: '/one' })).statusCode, 200);

    // A short, bounded load: four workers sending requests until the server has been killed and
    // each has seen a 503, plus statements in flight at the moment of the kill.
    const inFlight = [s.app.inject({ method: 'GET', url: '/sleep' }), s.app.inject({ method: 'GET', url: '/sleep' })];
    await eventually(
      async () => (await runningStatements(own.url, mark, 0)).length,
      (n) => n === 2,
      10_000,
    );
    let killed = false;
    const statuses: number[] = [];
    const worker = async (): Promise<void> => {
      for (let i = 0; i < 400; i++) {
        const r = await s.app.inject({ method: i % 2 === 0 ? 'GET' : 'POST', url: i % 2 === 0 ? '/one' : '/marks' });
        statuses.push(r.statusCode);
        if (r.statusCode !== 200 && r.statusCode !== 201) assertProblem(r, 503, 'dependency-unavailable');
        if (killed && r.statusCode === 503) return;
      }
    };
    const load = Promise.all([worker(), worker(), worker(), worker()]);
    await eventually(
      () => statuses.length,
      (n) => n >= 20,
      10_000,
    );
    await own.kill();
    killed = true;
    for (const r of await Promise.all(inFlight)) assertProblem(r, 503, 'dependency-unavailable');
    await load;
    assert.ok(statuses.includes(503), 'requests answered 503 while the server was down');
    // Meanwhile: refused at once, a query and a transaction's checkout alike.
    assertProblem(await s.app.inject({ method: 'GET', url: '/one' }), 503, 'dependency-unavailable');
    assertProblem(await s.app.inject({ method: 'POST', url: '/marks' }), 503, 'dependency-unavailable');
    assert.equal(s.db.stats().waiting, 0);

    await own.restart();
    const back = await eventually(
      async () => (await s.app.inject({ method: 'GET', url: '/one' })).statusCode,
      (status) => status === 200,
      10_000,
    );
    assert.equal(back, 200, 'served again without restarting svc');
    const committed = await s.app.inject({ method: 'POST', url: '/marks' });
    assert.equal(committed.statusCode, 201, committed.body);
    await poolWhole(s);
    assert.ok(s.db.stats().total <= 4, JSON.stringify(s.db.stats()));
  });

  test('twenty clients that hang up mid-statement leave the pool whole and nothing running (KILL QUERY)', async () => {
    const mark = marker();
    const db = await freshDatabase();
    const s = await serve(MANIFEST(mark).replace('max = 4', 'max = 10'), db, { requestTimeoutMs: 250 });
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => s.app.inject({ method: 'GET', url: '/sleep' })));
      for (const r of answers) {
        assert.equal(r.statusCode, 504, r.body);
        assert.equal(r.json().type, 'urn:svc:error:timeout');
      }
      assert.deepEqual(await runningStatements(db, mark), [], 'every SLEEP was killed');
      await poolWhole(s);
      assert.equal((await s.app.inject({ method: 'GET', url: '/one' })).statusCode, 200);
    } finally {
      await s.close();
    }
  });

  test('a client that disconnects mid-statement: KILL QUERY ends it on the server (information_schema.processlist), the pool stays whole', async () => {
    const mark = marker();
    const db = await freshDatabase();
    const s = await serve(MANIFEST(mark), db);
    try {
      const url = await listenLocal(s.app);
      const request = get(`${url}/sleep`);
      request.on('error', () => {});
      const running = await eventually(
        async () => (await runningStatements(db, mark, 0)).length,
        (n) => n === 1,
        10_000,
      );
      assert.equal(running, 1, 'the SLEEP(30) runs on the server');
      request.destroy();
      assert.deepEqual(await runningStatements(db, mark), [], 'killed once the client left');
      await poolWhole(s);
      assert.equal((await s.app.inject({ method: 'GET', url: '/one' })).statusCode, 200);
    } finally {
      await s.close();
    }
  });

  test("a runaway statement is cut by the connection's statement_timeout (max_statement_time): 504, and the pool stays whole", async () => {
    const mark = marker();
    const db = await freshDatabase();
    const s = await serve(MANIFEST(mark, 'statement_timeout = "300ms"'), db);
    try {
      assertProblem(await s.app.inject({ method: 'GET', url: '/sleep' }), 504, 'timeout');
      assert.deepEqual((await s.app.inject({ method: 'GET', url: '/sleep?s=0.01' })).json(), { [mark]: 0 });
      await poolWhole(s);
    } finally {
      await s.close();
    }
  });
});
