/**
 * svc through PgBouncer in transaction mode (scripts/pgbouncer-test-server.sh, 3 server connections
 * per database) in front of the test PostgreSQL server:
 * - named prepared statements (the default) break there unless PgBouncer tracks them (1.21+ with
 *   max_prepared_statements): shown on the PgBouncer installed, both settings when it can;
 * - with `prepared_statements = false`: sql steps, transactions (one server connection each, rolled
 *   back whole), `stream = true` (its portal lives in one implicit transaction, which PgBouncer does
 *   not split), and migrations of two replicas at once (transaction-level lock: nothing left behind);
 * - a connection's `statement_timeout` is refused by PgBouncer at boot with a hint; the same bound set
 *   on the database applies through it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnectors, MIGRATIONS_TABLE, type ConnectorSet } from '../../src/connectors/index.js';
import { modelOf, postgresConnection, recordingLogger, tempDir, type ConnectionOptions } from '../connectors/helpers.js';
import { closeTargets, REAL_POSTGRES_URL, serve, TARGETS } from './helpers.js';
import { ROOT } from '../paths.js';

const SCRIPT = join(ROOT, 'scripts/pgbouncer-test-server.sh');
const run = promisify(execFile);

/** The installed PgBouncer's version as [major, minor], or undefined when there is none. */
function pgbouncerVersion(): [number, number] | undefined {
  // Debian installs it in /usr/sbin, which a user's PATH may not hold.
  for (const bin of ['pgbouncer', '/usr/sbin/pgbouncer']) {
    try {
      const m = /PgBouncer (\d+)\.(\d+)/.exec(execFileSync(bin, ['--version'], { encoding: 'utf8' }));
      if (m) return [Number(m[1]), Number(m[2])];
    } catch {
      // The next place, or none.
    }
  }
  return undefined;
}

const version = pgbouncerVersion();
/** PgBouncer tracks named prepared statements in transaction mode from 1.21 on (max_prepared_statements). */
const tracksPrepared = version !== undefined && (version[0] > 1 || version[1] >= 21);
const skip =
  REAL_POSTGRES_URL === undefined
    ? (TARGETS[1]!.skip as string)
    : version === undefined
      ? 'pgbouncer is not installed (scripts/test.sh installs the Debian package pgbouncer)'
      : false;

interface Bouncer {
  readonly port: string;
  stop(): Promise<void>;
}

/** A PgBouncer of this file's own in front of the test server; `env` adds settings (see the script). */
async function startBouncer(env: Record<string, string> = {}): Promise<Bouncer> {
  // The directory itself: as root the script hands it to the postgres user.
  const dir = await tempDir('svc-pgbouncer-');
  const { stdout } = await run('bash', [SCRIPT, 'start', dir, REAL_POSTGRES_URL!], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { port: new URL(stdout.trim()).port, stop: async () => void (await run('bash', [SCRIPT, 'stop', dir])) };
}

/** A fresh database on the test server, and its URL through the bouncer. */
async function freshThrough(bouncer: Bouncer): Promise<{ direct: string; pooled: string }> {
  const direct = await TARGETS[1]!.fresh();
  const pooled = new URL(direct);
  pooled.port = bouncer.port;
  return { direct, pooled: pooled.toString() };
}

async function open(url: string, options: ConnectionOptions & { preparedStatements?: boolean } = {}): Promise<ConnectorSet> {
  const { preparedStatements, ...rest } = options;
  const connection = { ...postgresConnection(url, rest), ...(preparedStatements === undefined ? {} : { preparedStatements }) };
  const set = createConnectors(modelOf(connection));
  await set.openAll({ logger: recordingLogger() });
  return set;
}

/** Concurrent lookups through a pool of 8 clients: more clients than PgBouncer's 3 server connections. */
const LOOKUP = (prepared: string): string => `
connection "postgres" "db" {
  url = "{{DB}}"
  ${prepared}
  pool {
    max = 8
  }
}

endpoint "GET /items/{id}" {
  request {
    path {
      field "id" {
        type = int
      }
    }
  }
  pipeline {
    sql "item" {
      connection = connection.postgres.db
      query      = "SELECT @id::int AS id, pg_backend_pid() AS pid"
      args       = { id = ctx.request.path.id }
    }
    respond {
      body = steps.item.row
    }
  }
}
`;

async function lookups(url: string, prepared: string, count = 60): Promise<number[]> {
  const s = await serve(LOOKUP(prepared), url);
  try {
    const answers = await Promise.all(Array.from({ length: count }, (_, i) => s.app.inject({ method: 'GET', url: `/items/${i}` })));
    for (const [i, a] of answers.entries()) if (a.statusCode === 200) assert.equal(a.json().id, i);
    return answers.map((a) => a.statusCode);
  } finally {
    await s.close();
  }
}

describe('through PgBouncer in transaction mode', { skip }, () => {
  let bouncer: Bouncer;
  before(async () => {
    bouncer = await startBouncer();
  });
  after(async () => {
    await bouncer?.stop();
    await closeTargets();
  });

  test(`named prepared statements (the default) fail on PgBouncer ${version?.join('.')} without statement tracking`, {
    skip: tracksPrepared ? 'this PgBouncer tracks prepared statements: see the test with max_prepared_statements' : false,
  }, async () => {
    const { pooled } = await freshThrough(bouncer);
    const statuses = await lookups(pooled, '');
    // Eight pool clients each prepare the statement once, on whichever of the 3 server connections
    // PgBouncer gives them: at least five find it there already ("already exists"), or later run it
    // where it does not exist.
    assert.ok(
      statuses.some((s) => s === 500),
      `some lookups fail: ${statuses.join(',')}`,
    );
    const unnamed = await lookups(pooled, 'prepared_statements = false');
    assert.deepEqual(new Set(unnamed), new Set([200]));
  });

  test('named prepared statements work on PgBouncer 1.21+ with max_prepared_statements', {
    skip: tracksPrepared ? false : `PgBouncer ${version?.join('.')} predates statement tracking (1.21): prepared_statements = false is needed there`,
  }, async () => {
    const tracking = await startBouncer({ PGBOUNCER_MAX_PREPARED_STATEMENTS: '100' });
    try {
      const { pooled } = await freshThrough(tracking);
      assert.deepEqual(new Set(await lookups(pooled, '')), new Set([200]));
      assert.deepEqual(new Set(await lookups(pooled, 'prepared_statements = false')), new Set([200]));
    } finally {
      await tracking.stop();
    }
  });

  test('prepared_statements = false: transactions stay on one server connection each and roll back whole', async () => {
    const { direct, pooled } = await freshThrough(bouncer);
    const setup = await open(direct);
    await setup.handle('postgres', 'main').query('CREATE TABLE accounts (id serial PRIMARY KEY, email text UNIQUE NOT NULL)');
    await setup.closeAll();
    const s = await serve(
      `
connection "postgres" "db" {
  url                 = "{{DB}}"
  prepared_statements = false
  pool {
    max = 8
  }
}

endpoint "POST /accounts/{email}" {
  request {
    path {
      field "email" {
        type = string
      }
    }
  }
  pipeline {
    transaction "open" {
      connection = connection.postgres.db
      sql "account" {
        query = "INSERT INTO accounts (email) VALUES (@email) RETURNING id, txid_current() AS tx, pg_backend_pid() AS pid"
        args  = { email = ctx.request.path.email }
      }
      sql "again" {
        query = "INSERT INTO accounts (email) VALUES (@email || '.copy') RETURNING txid_current() AS tx, pg_backend_pid() AS pid"
        args  = { email = ctx.request.path.email }
      }
      catch "23505" {
        status = 409
        body   = { taken = ctx.request.path.email }
      }
    }
    respond {
      status = 201
      body   = { first = steps.account.row, second = steps.again.row }
    }
  }
}
`,
      pooled,
    );
    try {
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => s.app.inject({ method: 'POST', url: `/accounts/u${i}` })));
      for (const a of answers) {
        assert.equal(a.statusCode, 201, a.body);
        const { first, second } = a.json();
        assert.equal(first.tx, second.tx, 'both statements in one transaction');
        assert.equal(first.pid, second.pid, 'on one server connection');
      }
      // The second insert of u0.copy fails: the first insert of the same transaction is rolled back.
      const taken = await s.app.inject({ method: 'POST', url: '/accounts/u0.copy' });
      assert.equal(taken.statusCode, 409);
      const rows = await s.db.query<{ n: number }>("SELECT count(*)::int AS n FROM accounts WHERE email LIKE 'u0.copy%'");
      assert.equal(rows.rows[0]!.n, 1, 'only the u0 transaction wrote u0.copy');
      assert.equal((await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts')).rows[0]!.n, 80);
    } finally {
      await s.close();
    }
  });

  test('stream = true: the portal is read to its end while other statements share the bouncer', async () => {
    const { pooled } = await freshThrough(bouncer);
    const set = await open(pooled, { preparedStatements: false, pool: { max: 8 } });
    try {
      const db = set.handle('postgres', 'main');
      const cursor = await db.cursor<{ n: number }>('SELECT g AS n FROM generate_series(1, 1200) g', { batchRows: 100 });
      const seen: number[] = [];
      for await (const row of cursor) {
        seen.push(row.n);
        // Mid-way, with the portal suspended between two fetches: other statements run meanwhile on
        // the bouncer's other server connections.
        if (seen.length === 150) {
          const others = await Promise.all(
            Array.from({ length: 20 }, (_, i) => db.query<{ v: number }>({ text: 'SELECT $1::int AS v', values: [i], name: 'svc_x' })),
          );
          assert.deepEqual(
            others.map((r) => r.rows[0]!.v),
            Array.from({ length: 20 }, (_, i) => i),
          );
        }
      }
      assert.deepEqual(
        seen,
        Array.from({ length: 1200 }, (_, i) => i + 1),
      );
      assert.equal(cursor.released, true);
    } finally {
      await set.closeAll();
    }
    // And as an HTTP stream, several at once (more than the bouncer's 3 server connections).
    const s = await serve(
      `
connection "postgres" "db" {
  url                 = "{{DB}}"
  prepared_statements = false
}

endpoint "GET /numbers.ndjson" {
  pipeline {
    sql "numbers" {
      connection = connection.postgres.db
      query      = "SELECT g AS n FROM generate_series(1, 2000) g"
      stream     = true
    }
    stream "ndjson" {
      source = steps.numbers.stream
    }
  }
}
`,
      pooled,
    );
    try {
      const answers = await Promise.all(Array.from({ length: 5 }, () => s.app.inject({ method: 'GET', url: '/numbers.ndjson' })));
      for (const a of answers) {
        assert.equal(a.statusCode, 200);
        const lines = a.body.trim().split('\n');
        assert.equal(lines.length, 2000);
        assert.deepEqual(JSON.parse(lines[1999]!), { n: 2000 });
      }
    } finally {
      await s.close();
    }
  });

  test('statement_timeout: refused at boot with a hint; set on the database instead, it bounds statements through the bouncer', async () => {
    const { direct, pooled } = await freshThrough(bouncer);
    const refused = createConnectors(modelOf(postgresConnection(pooled, { statementTimeoutMs: 1000 })));
    await assert.rejects(
      refused.openAll(),
      /could not be opened: unsupported startup parameter: statement_timeout \(a pooler such as PgBouncer .*ALTER ROLE <user> SET statement_timeout/,
    );
    const admin = await open(direct, { name: 'admin' });
    try {
      await admin.handle('postgres', 'admin').query(`ALTER DATABASE ${new URL(direct).pathname.slice(1)} SET statement_timeout = '200ms'`);
    } finally {
      await admin.closeAll();
    }
    const s = await serve(
      `
connection "postgres" "db" {
  url                 = "{{DB}}"
  prepared_statements = false
}

endpoint "GET /slow" {
  pipeline {
    sql "slow" {
      connection = connection.postgres.db
      query      = "SELECT pg_sleep(5)"
    }
    respond {
      body = { slept = true }
    }
  }
}
`,
      pooled,
    );
    try {
      const started = Date.now();
      const answer = await s.app.inject({ method: 'GET', url: '/slow' });
      assert.equal(answer.statusCode, 504, answer.body);
      assert.ok(Date.now() - started < 4000, 'the server ended it, not the sleep');
    } finally {
      await s.close();
    }
  });

  test('migrations of two replicas at once: each file once, no lock or setting left on a server connection', async () => {
    const { direct, pooled } = await freshThrough(bouncer);
    const database = new URL(direct).pathname.slice(1);
    const admin = await open(direct, { name: 'admin' });
    const adminDb = admin.handle('postgres', 'admin');
    try {
      // A bound every server connection starts with: a lifted one left behind would show.
      await adminDb.query(`ALTER DATABASE ${database} SET statement_timeout = '20s'`);
      const dir = await tempDir('svc-pgbouncer-migrations-');
      await writeFile(join(dir, '001_table.sql'), 'CREATE TABLE runs (v int);');
      await writeFile(join(dir, '002_slow.sql'), 'SELECT pg_sleep(0.3); INSERT INTO runs VALUES (1);');
      await writeFile(join(dir, '003_more.sql'), 'INSERT INTO runs VALUES (2);');
      const [a, b] = [recordingLogger(), recordingLogger()];
      const openReplica = async (logger: ReturnType<typeof recordingLogger>): Promise<ConnectorSet> => {
        const set = createConnectors(modelOf({ ...postgresConnection(pooled, { migrations: dir }), preparedStatements: false }));
        await set.openAll({ logger });
        return set;
      };
      const sets = await Promise.all([openReplica(a), openReplica(b)]);
      const applied = [...a.lines, ...b.lines].filter((l) => l.message === 'migration applied').map((l) => l.fields.migration);
      assert.deepEqual(applied.sort(), ['001_table.sql', '002_slow.sql', '003_more.sql']);
      const db = sets[0].handle('postgres', 'main');
      assert.deepEqual((await db.query('SELECT v FROM runs ORDER BY v')).rows, [{ v: 1 }, { v: 2 }]);
      assert.equal((await db.query(`SELECT name FROM ${MIGRATIONS_TABLE}`)).rowCount, 3);
      const held = await adminDb.query<{ n: number }>({
        text: "SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND d.datname = $1",
        values: [database],
      });
      assert.equal(held.rows[0]!.n, 0, 'no advisory lock is held by any server connection');
      // Every server connection of the bouncer (3 at most) still has the database's bound.
      const timeouts = await Promise.all(
        Array.from({ length: 6 }, () => db.query<{ t: string }>("SELECT current_setting('statement_timeout') AS t, pg_sleep(0.05)")),
      );
      assert.deepEqual(new Set(timeouts.map((r) => r.rows[0]!.t)), new Set(['20s']));
      await Promise.all(sets.map((s) => s.closeAll()));
    } finally {
      await admin.closeAll();
    }
  });
});
