/**
 * The embedded engine's light start (src/connectors/postgres/template.ts, tar.ts, embedded.ts): a new
 * database is laid out from the empty data directory made at build time instead of running initdb,
 * the archive reader refuses what it does not understand or what would leave its directory, and the
 * engine runs with its smaller buffer cache.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createConnectors, type PostgresHandle } from '../../src/connectors/index.js';
import { extractTar, tarEntries } from '../../src/connectors/postgres/tar.js';
import { holdsDatabase, layOutTemplate, pgliteTemplateFile, readTemplate } from '../../src/connectors/postgres/template.js';
import { modelOf, postgresConnection } from './helpers.js';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-template-test-'));
  dirs.push(dir);
  return dir;
}

/** A ustar archive of the given entries, written the way PGlite writes its dumps. */
function tar(entries: readonly { name: string; type?: string; body?: string }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const { name, type = '0', body = '' } of entries) {
    const header = Buffer.alloc(512);
    header.write(name, 0, 100, 'utf8');
    header.write('0000600\0', 100);
    header.write(`${Buffer.byteLength(body).toString(8).padStart(11, '0')}\0`, 124);
    header.write(type, 156);
    header.write('ustar\0', 257);
    header.write('00', 263);
    blocks.push(header);
    const data = Buffer.from(body);
    blocks.push(data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

describe('the archive reader', () => {
  test('files and directories are read back as written, leading slashes and all', async () => {
    const archive = tar([
      { name: '/base', type: '5' },
      { name: '/base/1', body: 'one' },
      { name: '/PG_VERSION', body: '17\n' },
    ]);
    assert.deepEqual(
      [...tarEntries(archive)].map((e) => [e.name, e.type, Buffer.from(e.body).toString()]),
      [
        ['/base', 'directory', ''],
        ['/base/1', 'file', 'one'],
        ['/PG_VERSION', 'file', '17\n'],
      ],
    );
    const dir = join(await tempDir(), 'data');
    extractTar(archive, dir);
    assert.deepEqual(readdirSync(dir).sort(), ['PG_VERSION', 'base']);
    assert.equal(holdsDatabase(dir), true);
  });

  test('a name that leaves the directory, a link, or a body past the end is refused', async () => {
    const dir = join(await tempDir(), 'data');
    assert.throws(() => extractTar(tar([{ name: '../escaped', body: 'x' }]), dir), /leaves the target directory/);
    assert.throws(() => extractTar(tar([{ name: 'a/../../escaped', body: 'x' }]), dir), /leaves the target directory/);
    assert.equal(existsSync(join(dir, '..', 'escaped')), false);
    assert.throws(() => [...tarEntries(tar([{ name: 'link', type: '2' }]))], /not a file or directory/);
    const cut = tar([{ name: 'big', body: 'x'.repeat(2000) }]).subarray(0, 1024);
    assert.throws(() => [...tarEntries(cut)], /runs past the end/);
  });
});

describe('laying out the template', () => {
  test('a missing or empty directory gets it; one with content is left alone', async () => {
    const archive = gzipSync(tar([{ name: '/PG_VERSION', body: '17\n' }]));
    const root = await tempDir();
    assert.equal(await layOutTemplate(join(root, 'missing', 'data'), archive), true);
    assert.equal(holdsDatabase(join(root, 'missing', 'data')), true);
    mkdirSync(join(root, 'empty'));
    assert.equal(await layOutTemplate(join(root, 'empty'), archive), true);
    mkdirSync(join(root, 'used'));
    writeFileSync(join(root, 'used', 'notes.txt'), 'mine');
    assert.equal(await layOutTemplate(join(root, 'used'), archive), false);
    assert.deepEqual(readdirSync(join(root, 'used')), ['notes.txt']);
    // Nothing half-written is left beside them.
    assert.deepEqual(readdirSync(root).sort(), ['empty', 'missing', 'used']);
  });

  test('a damaged archive leaves no directory behind', async () => {
    const root = await tempDir();
    const damaged = gzipSync(
      tar([
        { name: '/PG_VERSION', body: '17\n' },
        { name: '/lnk', type: '2' },
      ]),
    );
    await assert.rejects(layOutTemplate(join(root, 'data'), damaged), /not a file or directory/);
    assert.deepEqual(readdirSync(root), []);
  });
});

const template = readTemplate();
const NO_TEMPLATE = template === undefined && `no PGlite template at ${pgliteTemplateFile()} (npm run build makes it)`;

describe('the embedded engine from the template', { skip: NO_TEMPLATE }, () => {
  for (const place of ['directory', 'memory'] as const) {
    test(`a new database in ${place} opens, is empty, takes writes, and has the small buffer cache`, async () => {
      const dir = place === 'directory' ? join(await tempDir(), 'data') : undefined;
      const set = createConnectors(modelOf(postgresConnection(dir === undefined ? 'pglite:' : `pglite:${dir}`)));
      await set.openAll();
      try {
        const db: PostgresHandle = set.handle('postgres', 'main');
        const tables = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'");
        assert.deepEqual(tables.rows, [{ n: 0 }]);
        await db.query('CREATE TABLE t (x int)');
        await db.query('INSERT INTO t VALUES (1)');
        assert.deepEqual((await db.query('SELECT x FROM t')).rows, [{ x: 1 }]);
        assert.deepEqual((await db.query('SHOW shared_buffers')).rows, [{ shared_buffers: '16MB' }]);
      } finally {
        await set.closeAll();
      }
      if (dir === undefined) return;
      assert.equal(holdsDatabase(dir), true);
      // Reopened, the data is there: the template became an ordinary database.
      const again = createConnectors(modelOf(postgresConnection(`pglite:${dir}`)));
      await again.openAll();
      try {
        assert.deepEqual((await again.handle('postgres', 'main').query('SELECT x FROM t')).rows, [{ x: 1 }]);
      } finally {
        await again.closeAll();
      }
    });
  }
});
