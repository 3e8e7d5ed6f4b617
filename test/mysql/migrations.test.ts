/**
 * `migrations = "<dir>"` on MariaDB: applied once each in name order, recorded with checksums, a
 * changed applied file a boot error naming it, a failing file's DML rolled back and not recorded, and
 * two processes opening at once (GET_LOCK) applying each file once. Also the connection's life: a
 * URL with a wrong password fails at once (not retried), a closed port after the bounded retry.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { ConnectorOpenError, createConnectors, type ConnectorSet } from '../../src/connectors/index.js';
import type { ConnectionModel } from '../../src/model/index.js';
import { closedPort, FAST_RETRY, modelOf, recordingLogger, tempDir, type LogLine } from '../connectors/helpers.js';
import { dropDatabases, freshDatabase, MYSQL_URL, NO_MYSQL } from './helpers.js';

after(dropDatabases);

function mysqlConnection(url: string, migrations?: string): ConnectionModel {
  const position = { line: 1, column: 1, byte: 0 };
  return {
    kind: 'mysql',
    name: 'main',
    url,
    baseDir: tmpdir(),
    range: { filename: 'test.hcl', start: position, end: position },
    ...(migrations !== undefined ? { migrations } : {}),
  };
}

async function migrationsDir(files: Record<string, string>): Promise<string> {
  const dir = await tempDir('svc-mysql-migrations-');
  for (const [name, sql] of Object.entries(files)) await writeFile(join(dir, name), sql);
  return dir;
}

const FILES = {
  '010_third.sql': "INSERT INTO steps (name) VALUES ('third');",
  '001_first.sql': "CREATE TABLE steps (n INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(40) NOT NULL);\nINSERT INTO steps (name) VALUES ('first');",
  '002_second.sql': "INSERT INTO steps (name) VALUES ('second');",
  'README.md': 'not a migration',
};

async function open(url: string, dir: string, logger = recordingLogger()): Promise<ConnectorSet> {
  const set = createConnectors(modelOf(mysqlConnection(url, dir)));
  await set.openAll({ logger });
  return set;
}

function applied(lines: readonly LogLine[]): unknown[] {
  return lines.filter((l) => l.message === 'migration applied').map((l) => l.fields.migration);
}

describe('migrations on MariaDB', { skip: NO_MYSQL }, () => {
  test('applied once each, in name order, recorded with checksums; a reopen applies only the new file', async () => {
    const url = await freshDatabase();
    const dir = await migrationsDir(FILES);
    const logger = recordingLogger();
    const first = await open(url, dir, logger);
    assert.deepEqual(applied(logger.lines), ['001_first.sql', '002_second.sql', '010_third.sql']);
    const db = first.handle('mysql', 'main');
    assert.deepEqual((await db.query('SELECT name FROM steps ORDER BY n')).rows, [{ name: 'first' }, { name: 'second' }, { name: 'third' }]);
    const recorded = await db.query<{ name: string; checksum: string; applied_at: string }>(
      'SELECT name, checksum, applied_at FROM svc_migrations ORDER BY name',
    );
    assert.deepEqual(
      recorded.rows.map((r) => r.name),
      ['001_first.sql', '002_second.sql', '010_third.sql'],
    );
    for (const r of recorded.rows) {
      assert.match(r.checksum, /^[0-9a-f]{64}$/);
      assert.match(r.applied_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    await first.closeAll();
    await writeFile(join(dir, '011_fourth.sql'), "INSERT INTO steps (name) VALUES ('fourth');");
    const again = recordingLogger();
    const second = await open(url, dir, again);
    assert.deepEqual(applied(again.lines), ['011_fourth.sql']);
    assert.equal((await second.handle('mysql', 'main').query('SELECT name FROM steps')).rowCount, 4);
    await second.closeAll();
  });

  test('a changed file stops the boot naming it; a failing file is not recorded and its DML is rolled back', async () => {
    const url = await freshDatabase();
    const dir = await migrationsDir(FILES);
    await (await open(url, dir)).closeAll();
    await writeFile(join(dir, '002_second.sql'), "INSERT INTO steps (name) VALUES ('second, edited');");
    const changed = createConnectors(modelOf(mysqlConnection(url, dir)));
    await assert.rejects(changed.openAll(), (error: unknown) => {
      assert.ok(error instanceof ConnectorOpenError);
      assert.match(error.message, /^connection "mysql" "main" \(.*\) could not be opened: migration .*002_second\.sql was changed after it was applied/);
      return true;
    });
    await writeFile(join(dir, '002_second.sql'), FILES['002_second.sql']);
    await writeFile(join(dir, '020_bad.sql'), "INSERT INTO steps (name) VALUES ('half');\nINSERT INTO no_such_table VALUES (1);");
    const failing = createConnectors(modelOf(mysqlConnection(url, dir)));
    await assert.rejects(failing.openAll(), /migration .*020_bad\.sql failed/);
    const plain = createConnectors(modelOf(mysqlConnection(url)));
    await plain.openAll();
    const db = plain.handle('mysql', 'main');
    assert.equal((await db.query("SELECT COUNT(*) AS n FROM steps WHERE name = 'half'")).rows[0]!.n, 0, 'rolled back');
    assert.equal((await db.query("SELECT COUNT(*) AS n FROM svc_migrations WHERE name = '020_bad.sql'")).rows[0]!.n, 0, 'not recorded');
    await plain.closeAll();
  });

  test('two processes opening at once apply each file once (GET_LOCK)', async () => {
    const url = await freshDatabase();
    const dir = await migrationsDir(FILES);
    const [a, b] = [recordingLogger(), recordingLogger()];
    const sets = await Promise.all([open(url, dir, a), open(url, dir, b)]);
    assert.deepEqual([...applied(a.lines), ...applied(b.lines)].sort(), ['001_first.sql', '002_second.sql', '010_third.sql']);
    assert.equal((await sets[0].handle('mysql', 'main').query('SELECT name FROM steps')).rowCount, 3);
    await Promise.all(sets.map((s) => s.closeAll()));
  });

  test('a wrong password fails the boot at once, a closed port after the bounded retry; neither shows the password', async () => {
    const wrong = new URL(MYSQL_URL!);
    wrong.username = 'nobody';
    wrong.password = 'sekret-pass';
    const refused = createConnectors(modelOf(mysqlConnection(wrong.toString())));
    await assert.rejects(refused.openAll({ retry: FAST_RETRY }), (error: unknown) => {
      assert.ok(error instanceof ConnectorOpenError);
      assert.equal(error.attempts, 1, error.message);
      assert.doesNotMatch(error.message, /sekret-pass/);
      assert.match(error.message, /nobody:\*\*\*@/);
      return true;
    });
    const closed = createConnectors(modelOf(mysqlConnection(`mysql://root:sekret-pass@127.0.0.1:${await closedPort()}/x`)));
    await assert.rejects(closed.openAll({ retry: FAST_RETRY }), (error: unknown) => {
      assert.ok(error instanceof ConnectorOpenError);
      assert.equal(error.attempts, 3, error.message);
      assert.match(error.message, /ECONNREFUSED/);
      assert.doesNotMatch(error.message, /sekret-pass/);
      return true;
    });
  });
});
