/**
 * `migrations = "<dir>"` on both engines: applied once each in name order, recorded with checksums,
 * a changed applied file is a boot error naming it, a failing file is rolled back and not recorded,
 * and two replicas opening at once apply each file once.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConnectorOpenError, createConnectors, MIGRATIONS_TABLE, type ConnectorSet } from '../../src/connectors/index.js';
import { closeTargets, modelOf, postgresConnection, recordingLogger, TARGETS, tempDir, type LogLine } from './helpers.js';

after(closeTargets);

/** A migrations directory with these files (written out of order on purpose). */
async function migrationsDir(files: Record<string, string>): Promise<string> {
  const dir = await tempDir('svc-migrations-');
  for (const [name, sql] of Object.entries(files)) await writeFile(join(dir, name), sql);
  return dir;
}

const FILES = {
  '010_third.sql': "INSERT INTO steps (name) VALUES ('third');",
  '001_first.sql': "CREATE TABLE steps (n serial PRIMARY KEY, name text NOT NULL);\nINSERT INTO steps (name) VALUES ('first');",
  '002_second.sql': "INSERT INTO steps (name) VALUES ('second');",
  'README.md': 'not a migration',
};

async function open(url: string, dir: string, logger = recordingLogger()): Promise<ConnectorSet> {
  const set = createConnectors(modelOf(postgresConnection(url, { migrations: dir })));
  await set.openAll({ logger });
  return set;
}

function applied(lines: readonly LogLine[]): unknown[] {
  return lines.filter((l) => l.message === 'migration applied').map((l) => l.fields.migration);
}

for (const target of TARGETS) {
  describe(`migrations on ${target.name}`, { skip: target.skip }, () => {
    test('applied once each, in name order, recorded with checksums; a reopen applies nothing', async () => {
      const url = await target.fresh();
      const dir = await migrationsDir(FILES);
      const logger = recordingLogger();
      const first = await open(url, dir, logger);
      assert.deepEqual(applied(logger.lines), ['001_first.sql', '002_second.sql', '010_third.sql']);
      const db = first.handle('postgres', 'main');
      assert.deepEqual((await db.query('SELECT name FROM steps ORDER BY n')).rows, [{ name: 'first' }, { name: 'second' }, { name: 'third' }]);
      const recorded = await db.query<{ name: string; checksum: string; applied_at: string }>(
        `SELECT name, checksum, applied_at FROM ${MIGRATIONS_TABLE} ORDER BY name`,
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
      assert.equal((await second.handle('postgres', 'main').query('SELECT name FROM steps')).rowCount, 4);
      await second.closeAll();
    });

    test('a file changed after it was applied stops the boot, naming it; nothing new is applied', async () => {
      const url = await target.fresh();
      const dir = await migrationsDir(FILES);
      await (await open(url, dir)).closeAll();
      await writeFile(join(dir, '002_second.sql'), "INSERT INTO steps (name) VALUES ('second, edited');");
      await writeFile(join(dir, '020_new.sql'), "INSERT INTO steps (name) VALUES ('new');");
      const set = createConnectors(modelOf(postgresConnection(url, { migrations: dir })));
      await assert.rejects(set.openAll(), (error: unknown) => {
        assert.ok(error instanceof ConnectorOpenError);
        assert.match(error.message, /^connection "postgres" "main" \(.*\) could not be opened: migration .*002_second\.sql was changed after it was applied/);
        assert.equal(error.attempts, 1);
        return true;
      });
      const check = await open(url, join(dir, 'nothing-here-is-read-twice'), recordingLogger()).catch((e: unknown) => e);
      assert.ok(check instanceof ConnectorOpenError, 'a missing directory is a boot error too');
      assert.match(check.message, /migrations directory .*nothing-here-is-read-twice cannot be read/);
      const plain = createConnectors(modelOf(postgresConnection(url)));
      await plain.openAll();
      assert.equal((await plain.handle('postgres', 'main').query("SELECT 1 FROM steps WHERE name = 'new'")).rowCount, 0);
      await plain.closeAll();
    });

    test('a failing file is rolled back and not recorded; the error names it', async () => {
      const url = await target.fresh();
      const dir = await migrationsDir({
        '001_ok.sql': 'CREATE TABLE kept (v int);',
        '002_bad.sql': 'CREATE TABLE half (v int);\nINSERT INTO nowhere VALUES (1);',
      });
      await assert.rejects(open(url, dir), (error: unknown) => {
        assert.ok(error instanceof ConnectorOpenError);
        assert.match(error.message, /migration .*002_bad\.sql failed: relation "nowhere" does not exist$/);
        return true;
      });
      const plain = createConnectors(modelOf(postgresConnection(url)));
      await plain.openAll();
      const db = plain.handle('postgres', 'main');
      assert.deepEqual((await db.query(`SELECT name FROM ${MIGRATIONS_TABLE}`)).rows, [{ name: '001_ok.sql' }]);
      assert.deepEqual((await db.query("SELECT to_regclass('half') AS t")).rows, [{ t: null }]);
      await plain.closeAll();
    });

    test('two replicas opening at once apply each file once', {
      skip: target.name === 'pglite' ? 'a PGlite directory belongs to one process: replicas share a server' : false,
    }, async () => {
      const url = await target.fresh();
      const dir = await migrationsDir({
        '001_table.sql': 'CREATE TABLE runs (v int);',
        // Slow enough that the second replica arrives while the first holds the lock.
        '002_slow.sql': 'SELECT pg_sleep(0.3); INSERT INTO runs VALUES (1);',
      });
      const [a, b] = [recordingLogger(), recordingLogger()];
      const sets = await Promise.all([open(url, dir, a), open(url, dir, b)]);
      assert.deepEqual([...applied(a.lines), ...applied(b.lines)].sort(), ['001_table.sql', '002_slow.sql']);
      assert.equal((await sets[0].handle('postgres', 'main').query('SELECT v FROM runs')).rowCount, 1);
      await Promise.all(sets.map((s) => s.closeAll()));
    });
  });
}
