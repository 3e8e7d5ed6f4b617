/**
 * `migrations = "<dir>"` on one engine: applied once each in name order (other files ignored),
 * recorded with their checksums, a reopen applying only a new file; a changed applied file, or a
 * directory that cannot be read, a boot error naming it, with nothing new applied; a failing file
 * not recorded and its changes rolled back; two processes (or replicas) opening at once applying
 * each file once.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConnectorOpenError, MIGRATIONS_TABLE, type SqlHandle } from '../../src/connectors/index.js';
import { recordingLogger, tempDir, type LogLine } from '../connectors/helpers.js';
import type { ConnectorLogger, ConnectorSet } from '../../src/connectors/index.js';
import type { Engine } from './engine.js';

/** A migrations directory with these files (written out of order on purpose). */
async function migrationsDir(files: Record<string, string>): Promise<string> {
  const dir = await tempDir('svc-migrations-');
  for (const [name, sql] of Object.entries(files)) await writeFile(join(dir, name), sql);
  return dir;
}

function applied(lines: readonly LogLine[]): unknown[] {
  return lines.filter((l) => l.message === 'migration applied').map((l) => l.fields.migration);
}

/** Two sets of this process opening `url` with `dir` at once (replicas of a server engine): what each applied. */
export async function openedAtOnce(
  open: (url: string, dir: string, logger: ConnectorLogger) => Promise<ConnectorSet>,
  url: string,
  dir: string,
): Promise<unknown[][]> {
  const loggers = [recordingLogger(), recordingLogger()];
  const sets = await Promise.all(loggers.map((logger) => open(url, dir, logger)));
  await Promise.all(sets.map((set) => set.closeAll()));
  return loggers.map((logger) => applied(logger.lines));
}

export function migrationSuite(engine: Engine): void {
  const FILES = {
    '010_third.sql': "INSERT INTO steps (name) VALUES ('third');",
    '001_first.sql': `CREATE TABLE steps (${engine.sql.autoId}, name VARCHAR(40) NOT NULL);\nINSERT INTO steps (name) VALUES ('first');`,
    '002_second.sql': "INSERT INTO steps (name) VALUES ('second');",
    'README.md': 'not a migration',
  };
  const { open, twoAtOnce } = engine.migrations;
  const handleOf = (set: { handle(kind: Engine['kind'], name: string): unknown }): SqlHandle => set.handle(engine.kind, 'main') as SqlHandle;
  /** Runs `use` on a set without migrations, closed after. */
  async function plainly<T>(url: string, use: (db: SqlHandle) => Promise<T>): Promise<T> {
    const set = await open(url, undefined);
    try {
      return await use(handleOf(set));
    } finally {
      await set.closeAll();
    }
  }

  describe(`migrations on ${engine.name}`, { skip: engine.skip }, () => {
    test('applied once each, in name order, recorded with checksums; a reopen applies only the new file', async () => {
      const url = await engine.fresh();
      const dir = await migrationsDir(FILES);
      const logger = recordingLogger();
      const first = await open(url, dir, logger);
      assert.deepEqual(applied(logger.lines), ['001_first.sql', '002_second.sql', '010_third.sql']);
      const db = handleOf(first);
      assert.deepEqual((await db.query('SELECT name FROM steps ORDER BY id')).rows, [{ name: 'first' }, { name: 'second' }, { name: 'third' }]);
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
      assert.equal((await handleOf(second).query('SELECT name FROM steps')).rowCount, 4);
      await second.closeAll();
    });

    test('a file changed after it was applied stops the boot, naming it; nothing new is applied; an unreadable directory too', async () => {
      const url = await engine.fresh();
      const dir = await migrationsDir(FILES);
      await (await open(url, dir)).closeAll();
      await writeFile(join(dir, '002_second.sql'), "INSERT INTO steps (name) VALUES ('second, edited');");
      await writeFile(join(dir, '020_new.sql'), "INSERT INTO steps (name) VALUES ('new');");
      await assert.rejects(open(url, dir), (error: unknown) => {
        assert.ok(error instanceof ConnectorOpenError);
        assert.match(
          error.message,
          new RegExp(`^connection "${engine.kind}" "main" \\(.*\\) could not be opened: migration .*002_second\\.sql was changed after it was applied`),
        );
        assert.equal(error.attempts, 1);
        return true;
      });
      const missing = await open(url, join(dir, 'nothing-here-is-read-twice')).catch((e: unknown) => e);
      assert.ok(missing instanceof ConnectorOpenError, 'a missing directory is a boot error too');
      assert.match(missing.message, /migrations directory .*nothing-here-is-read-twice cannot be read/);
      assert.equal(await plainly(url, async (db) => (await db.query("SELECT 1 FROM steps WHERE name = 'new'")).rowCount), 0);
    });

    test('a failing file is not recorded and its changes are rolled back; the error names it', async () => {
      const url = await engine.fresh();
      const dir = await migrationsDir({ ...FILES, '020_bad.sql': "INSERT INTO steps (name) VALUES ('half');\nINSERT INTO no_such_table VALUES (1);" });
      await assert.rejects(open(url, dir), (error: unknown) => {
        assert.ok(error instanceof ConnectorOpenError);
        assert.match(error.message, /migration .*020_bad\.sql failed: .*no_such_table/);
        return true;
      });
      await plainly(url, async (db) => {
        assert.equal((await db.query("SELECT name FROM steps WHERE name = 'half'")).rowCount, 0, 'rolled back');
        assert.deepEqual(
          (await db.query(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY name`)).rows,
          [{ name: '001_first.sql' }, { name: '002_second.sql' }, { name: '010_third.sql' }],
          'the files before it recorded, not it',
        );
      });
    });

    test('two processes opening at once apply each file once', { skip: typeof twoAtOnce === 'string' && twoAtOnce }, async () => {
      const url = await engine.fresh();
      // A slow file, where the engine has one, so that the second arrives while the first holds the lock.
      const slow = engine.migrations.slow;
      const dir = await migrationsDir({ ...FILES, ...(slow === undefined ? {} : { '005_slow.sql': slow }) });
      const lists = await (twoAtOnce as Exclude<typeof twoAtOnce, string>)(url, dir);
      const expected = ['001_first.sql', '002_second.sql', ...(slow === undefined ? [] : ['005_slow.sql']), '010_third.sql'];
      assert.deepEqual(lists.flat().sort(), expected, `each file applied by one of them: ${JSON.stringify(lists)}`);
      assert.equal(await plainly(url, async (db) => (await db.query('SELECT name FROM steps')).rowCount), 3);
    });
  });
}
