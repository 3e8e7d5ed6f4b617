/**
 * The connector lifecycle (src/connectors/set.ts): handles without I/O, open/ping/health/close on
 * both postgres targets, idempotent close, clear errors before open and after close, and a boot
 * failure that names the connection and its URL without the password, after a bounded retry.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { classifyConnectorError, ConnectorError, ConnectorOpenError, createConnectors, DEFAULT_RETRY, redactUrl } from '../../src/connectors/index.js';
import {
  closedPort,
  closeTargets,
  countingServer,
  FAST_RETRY,
  modelOf,
  postgresConnection,
  recordingLogger,
  REAL_POSTGRES_URL,
  NO_REAL_POSTGRES,
  TARGETS,
  tempDir,
} from './helpers.js';

after(closeTargets);

test('createConnectors opens nothing: no socket, no PGlite directory', async () => {
  const server = await countingServer();
  const dir = join(await tempDir(), 'not-created');
  try {
    const set = createConnectors(
      modelOf(
        postgresConnection(`postgres://svc:secret@127.0.0.1:${server.port}/db`, { name: 'main' }),
        postgresConnection(`pglite:${dir}`, { name: 'local' }),
      ),
    );
    assert.deepEqual(
      set.handles.map((h) => [h.key, h.state, h.url]),
      [
        ['postgres.main', 'created', `postgres://svc:***@127.0.0.1:${server.port}/db`],
        ['postgres.local', 'created', `pglite:${dir}`],
      ],
    );
    assert.equal(set.get('postgres.main'), set.handle('postgres', 'main'));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(server.connections(), 0);
    assert.equal(existsSync(dir), false);
    await set.closeAll();
  } finally {
    await server.close();
  }
});

test('a handle used before openAll throws a clear error; health says not open', async () => {
  const set = createConnectors(modelOf(postgresConnection('postgres://u:p@127.0.0.1:1/db')));
  const handle = set.handle('postgres', 'main');
  await assert.rejects(handle.query('SELECT 1'), (error: unknown) => {
    assert.ok(error instanceof ConnectorError);
    assert.match(error.message, /^connection "postgres" "main" is not open: connections are opened at boot \(openAll\)/);
    assert.equal(error.connection, 'postgres.main');
    return true;
  });
  assert.throws(() => handle.stats(), /is not open/);
  const [health] = await set.health();
  assert.equal(health!.ok, false);
  assert.match(health!.error!, /is not open/);
  assert.throws(() => set.handle('postgres', 'other'), /no connection "postgres" "other" is declared/);
});

test('an unreachable server: a clear error naming the connection and its redacted URL, after a bounded retry, quickly', async () => {
  const port = await closedPort();
  const logger = recordingLogger();
  const set = createConnectors(modelOf(postgresConnection(`postgres://svc:s3cret-pw@127.0.0.1:${port}/app`)));
  const started = performance.now();
  const error = await set.openAll({ logger, retry: FAST_RETRY }).then(
    () => assert.fail('openAll should fail'),
    (e: unknown) => e,
  );
  const elapsed = performance.now() - started;
  assert.ok(error instanceof ConnectorOpenError);
  assert.equal(
    error.message,
    `connection "postgres" "main" (postgres://svc:***@127.0.0.1:${port}/app) could not be opened after 3 attempts: connect ECONNREFUSED 127.0.0.1:${port}`,
  );
  assert.doesNotMatch(error.message, /s3cret/);
  assert.equal(error.attempts, 3);
  assert.equal(error.category, 'dependency-unavailable');
  assert.equal(classifyConnectorError(error), 'dependency-unavailable');
  assert.ok(elapsed < 2000, `took ${elapsed} ms`);
  const retries = logger.lines.filter((l) => l.message === 'connection not ready; retrying');
  assert.deepEqual(
    retries.map((l) => [l.fields.attempt, l.fields.retryInMs]),
    [
      [1, 20],
      [2, 40],
    ],
  );
  assert.ok(!JSON.stringify(logger.lines).includes('s3cret'));
  // A failed openAll closes the set: nothing is left open, and it cannot be reopened.
  assert.equal(set.handle('postgres', 'main').state, 'closed');
  await set.closeAll();
});

test('a declared connection of a kind without a connector yet is listed, warned about, and never opened', async () => {
  // Every kind the manifest knows has a connector now; a kind from a newer manifest language stands in.
  const future = { ...postgresConnection('mongodb://127.0.0.1:1/0', { name: 'docs' }), kind: 'mongodb' as never };
  const set = createConnectors(modelOf(future));
  assert.deepEqual(set.handles, []);
  assert.deepEqual(set.unsupported, ['mongodb.docs']);
  assert.equal(set.get('mongodb.docs'), undefined);
  const logger = recordingLogger();
  await set.openAll({ logger });
  assert.deepEqual(
    logger.lines.map((l) => [l.level, l.fields.connection, l.message]),
    [['warn', 'mongodb.docs', 'no connector for this kind yet: the connection is not opened']],
  );
  await set.closeAll();
});

test('the default retry tries 5 times over about 3 s', () => {
  const waits: number[] = [];
  let delay = DEFAULT_RETRY.initialDelayMs;
  for (let n = 1; n < DEFAULT_RETRY.attempts; n++) {
    waits.push(delay);
    delay = Math.min(delay * 2, DEFAULT_RETRY.maxDelayMs);
  }
  assert.equal(DEFAULT_RETRY.attempts, 5);
  assert.equal(
    waits.reduce((a, b) => a + b, 0),
    3000,
  );
});

test('redactUrl hides the userinfo password and a password parameter, and nothing else', () => {
  assert.equal(redactUrl('postgres://u:p@ss@h:5432/db'), 'postgres://u:***@h:5432/db');
  assert.equal(redactUrl('postgresql://u@h/db?sslmode=require&password=x&a=1'), 'postgresql://u@h/db?sslmode=require&password=***&a=1');
  assert.equal(redactUrl('postgres://h/db'), 'postgres://h/db');
  assert.equal(redactUrl('pglite:./data'), 'pglite:./data');
});

for (const target of TARGETS) {
  describe(`lifecycle on ${target.name}`, { skip: target.skip }, () => {
    test('open, ping, health, close; close is idempotent and final', async () => {
      const logger = recordingLogger();
      const set = createConnectors(modelOf(postgresConnection(await target.fresh())));
      const handle = set.handle('postgres', 'main');
      assert.equal(handle.embedded, target.name === 'pglite');
      const opening = set.openAll({ logger });
      assert.equal(set.openAll(), opening, 'a second openAll answers the same promise');
      await opening;
      assert.equal(handle.state, 'open');
      assert.deepEqual((await handle.query<{ n: number }>('SELECT 1 AS n')).rows, [{ n: 1 }]);
      const [health] = await set.health();
      assert.equal(health!.ok, true, health!.error);
      assert.equal(health!.key, 'postgres.main');
      assert.ok(health!.latencyMs >= 0);
      assert.ok(logger.lines.some((l) => l.message === 'connection open' && l.fields.connection === 'postgres.main'));

      const closing = set.closeAll();
      assert.equal(set.closeAll(), closing);
      await closing;
      await set.closeAll();
      assert.equal(handle.state, 'closed');
      await assert.rejects(handle.query('SELECT 1'), /connection "postgres" "main" is closed/);
      const [after] = await set.health();
      assert.equal(after!.ok, false);
      await assert.rejects(set.openAll(), /closed/);
    });

    test('a connection that fails closes the ones that opened; the error names the failing one', async () => {
      const port = await closedPort();
      const set = createConnectors(
        modelOf(postgresConnection(await target.fresh(), { name: 'good' }), postgresConnection(`postgres://u:pw-secret@127.0.0.1:${port}/db`, { name: 'bad' })),
      );
      await assert.rejects(set.openAll({ retry: FAST_RETRY }), (error: unknown) => {
        assert.ok(error instanceof ConnectorOpenError);
        assert.match(error.message, /^connection "postgres" "bad" \(postgres:\/\/u:\*\*\*@127\.0\.0\.1:\d+\/db\) could not be opened/);
        return true;
      });
      assert.equal(set.handle('postgres', 'good').state, 'closed');
      await set.closeAll();
    });

    test('closeAll during openAll waits for it, then closes', async () => {
      const set = createConnectors(modelOf(postgresConnection(await target.fresh())));
      const opening = set.openAll();
      const closing = set.closeAll();
      await opening;
      await closing;
      assert.equal(set.handle('postgres', 'main').state, 'closed');
    });
  });
}

describe('failures that are not worth retrying', { skip: REAL_POSTGRES_URL === undefined ? NO_REAL_POSTGRES : false }, () => {
  test('a database that does not exist fails at the first attempt, with its SQLSTATE', async () => {
    const url = new URL(REAL_POSTGRES_URL!);
    url.pathname = '/no_such_database';
    const set = createConnectors(modelOf(postgresConnection(url.toString())));
    const started = performance.now();
    await assert.rejects(set.openAll({ retry: { attempts: 5, initialDelayMs: 500, maxDelayMs: 500 } }), (error: unknown) => {
      assert.ok(error instanceof ConnectorOpenError);
      assert.equal(error.attempts, 1);
      assert.equal(error.code, '3D000');
      assert.match(error.message, /could not be opened: database "no_such_database" does not exist$/);
      return true;
    });
    assert.ok(performance.now() - started < 500);
  });
});
