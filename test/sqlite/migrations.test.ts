/**
 * `migrations` on SQLite: applied once each, in name order, recorded with their checksums; a changed
 * file refused at boot; a failing file leaves nothing behind; and two processes booting on one
 * database file at once apply each file once (the second waits for the write lock, then finds it
 * recorded).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SqlHandle } from '../../src/connectors/index.js';
import { LOADER, moduleUrl } from '../paths.js';
import { openSqliteSet, scratchDir, sqliteConnection, SQLITE_ONLY } from './helpers.js';

describe('sqlite migrations', SQLITE_ONLY, () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>;
  before(async () => {
    scratch = await scratchDir();
  });
  after(() => scratch.remove());

  async function migrationsDir(name: string, files: Record<string, string>): Promise<string> {
    const dir = join(scratch.dir, name);
    await mkdir(dir, { recursive: true });
    for (const [file, sql] of Object.entries(files)) await writeFile(join(dir, file), sql);
    return dir;
  }

  test('applied once each, in name order, and recorded', async () => {
    const dir = await migrationsDir('once', {
      '010_b.sql': "INSERT INTO t (v) VALUES ('second');",
      '002_a.sql': "CREATE TABLE t (v TEXT);\nINSERT INTO t (v) VALUES ('first');",
    });
    for (let boot = 0; boot < 2; boot++) {
      const set = await openSqliteSet('sqlite:once.db', { baseDir: scratch.dir, migrations: dir });
      const db = set.get('sqlite.main') as SqlHandle;
      assert.deepEqual((await db.query('SELECT v FROM t ORDER BY rowid')).rows, [{ v: 'first' }, { v: 'second' }]);
      const recorded = await db.query(
        "SELECT name, length(checksum) AS len, applied_at LIKE '____-__-__T__:__:__.___Z' AS iso FROM svc_migrations ORDER BY name",
      );
      assert.deepEqual(recorded.rows, [
        { name: '002_a.sql', len: 64, iso: 1 },
        { name: '010_b.sql', len: 64, iso: 1 },
      ]);
      await set.closeAll();
    }
  });

  test('a file changed after it was applied is a boot error naming it', async () => {
    const dir = await migrationsDir('changed', { '001.sql': 'CREATE TABLE c (v TEXT);' });
    const first = await openSqliteSet('sqlite:changed.db', { baseDir: scratch.dir, migrations: dir });
    await first.closeAll();
    await writeFile(join(dir, '001.sql'), 'CREATE TABLE c (v TEXT, w TEXT);');
    await assert.rejects(openSqliteSet('sqlite:changed.db', { baseDir: scratch.dir, migrations: dir }), /001\.sql was changed after it was applied/);
  });

  test('a failing file is a boot error naming it, and leaves nothing of itself', async () => {
    const dir = await migrationsDir('failing', {
      '001.sql': 'CREATE TABLE f (v TEXT);',
      '002.sql': 'INSERT INTO f (v) VALUES (1);\nINSERT INTO nowhere VALUES (1);',
    });
    await assert.rejects(openSqliteSet('sqlite:failing.db', { baseDir: scratch.dir, migrations: dir }), /migration .*002\.sql failed: no such table: nowhere/);
    const set = await openSqliteSet('sqlite:failing.db', { baseDir: scratch.dir });
    const db = set.get('sqlite.main') as SqlHandle;
    assert.deepEqual((await db.query('SELECT count(*) AS n FROM f')).rows, [{ n: 0 }]);
    assert.deepEqual((await db.query('SELECT name FROM svc_migrations')).rows, [{ name: '001.sql' }]);
    await set.closeAll();
  });

  test('two processes booting at once apply each file once', async () => {
    // A migration long enough for the second process to arrive while the first holds the lock; it
    // counts its runs in a table of its own.
    const dir = await migrationsDir('race', {
      '001.sql': 'CREATE TABLE runs (n INTEGER); CREATE TABLE big (n INTEGER);',
      '002.sql':
        'INSERT INTO runs VALUES (1);\nWITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 300000) INSERT INTO big SELECT n FROM s;',
    });
    const connection = sqliteConnection(`sqlite:${join(scratch.dir, 'race.db')}`, { migrations: dir });
    const script = `
      const { createConnectors } = await import(${JSON.stringify(moduleUrl('src/connectors/index.ts'))});
      const connection = ${JSON.stringify(connection)};
      const set = createConnectors({ connections: new Map([['sqlite.main', connection]]) });
      const applied = [];
      await set.openAll({ logger: { info: (f, m) => m === 'migration applied' && applied.push(f.migration), warn() {} } });
      await set.closeAll();
      process.stdout.write(JSON.stringify(applied));
    `;
    const run = () =>
      new Promise<string[]>((resolve, reject) => {
        const child = spawn(process.execPath, [...LOADER, '--no-warnings', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (err += c.toString()));
        child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as string[]) : reject(new Error(`exit ${code}: ${err}`))));
      });
    const [a, b] = await Promise.all([run(), run()]);
    assert.deepEqual([...a, ...b].sort(), ['001.sql', '002.sql'], `each file applied by one process: ${JSON.stringify([a, b])}`);
    const set = await openSqliteSet(connection.url, { migrations: dir });
    const db = set.get('sqlite.main') as SqlHandle;
    assert.deepEqual((await db.query('SELECT count(*) AS n FROM runs')).rows, [{ n: 1 }]);
    assert.deepEqual((await db.query('SELECT count(*) AS n FROM big')).rows, [{ n: 300000 }]);
    await set.closeAll();
  });
});
