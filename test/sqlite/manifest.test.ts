/**
 * What the manifest says of sqlite connections, on every Node.js line (this file never skips): the
 * Node.js versions with node:sqlite, the diagnostic at the URL where the running one has none, the
 * URL forms, `busy_timeout`, and the attributes only PostgreSQL has; `sqlite::memory:` refused with
 * several workers, a file allowed; a database directory that cannot be made, a diagnostic of `svc
 * serve` at the URL.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSqliteDirectories } from '../../src/connectors/index.js';
import { codeOf } from '../../src/diag/index.js';
import { checkProcessLocalConnections } from '../../src/model/index.js';
import { sqliteUnavailableReason } from '../../src/manifest/sqlite-support.js';
import { buildServiceModel } from '../../src/steps/index.js';
import { svc } from '../cli/helpers.js';
import { NO_SQLITE, scratchDir, sqliteConnection } from './helpers.js';

function build(source: string) {
  return buildServiceModel([{ filename: 'f.hcl', source }]);
}

function diagnostics(source: string): string[] {
  return build(source).diagnostics.map((d) => `${d.subject?.start.line}:${d.subject?.start.column} ${codeOf(d)} ${d.detail ?? ''}`);
}

const connection = (body: string): string => `connection "sqlite" "db" {\n${body}\n}\n`;

test('node:sqlite: the versions that have it, and what to do on those that do not', () => {
  assert.equal(sqliteUnavailableReason('22.16.0', true), undefined);
  assert.equal(sqliteUnavailableReason('23.11.0', true), undefined);
  assert.equal(sqliteUnavailableReason('26.0.0', true), undefined);
  assert.match(sqliteUnavailableReason('20.19.0', false)!, /Node\.js 22\.16 or later \(23\.11 or later on the 23 line\); this is Node\.js 20\.19\.0\./);
  // 22.13 to 22.15 have node:sqlite unflagged, but not StatementSync.columns().
  assert.match(sqliteUnavailableReason('22.13.0', true)!, /this is Node\.js 22\.13\.0/);
  assert.match(sqliteUnavailableReason('23.10.0', true)!, /this is Node\.js 23\.10\.0/);
  assert.match(sqliteUnavailableReason('24.1.0', false)!, /--no-experimental-sqlite/);
  // This process: the module loads exactly when the check says it can.
  assert.equal(
    sqliteUnavailableReason() === undefined,
    typeof process.getBuiltinModule === 'function' && process.getBuiltinModule('node:sqlite') !== undefined,
  );
});

test('a sqlite connection on a Node.js without node:sqlite is an error at its url', {
  skip: NO_SQLITE === undefined ? 'this Node.js has node:sqlite' : false,
}, () => {
  const found = diagnostics(connection('  url = "sqlite:app.db"'));
  assert.equal(found.length, 1, found.join('\n'));
  assert.match(found[0]!, /^2:9 SVC_CONNECTION_SQLITE_UNAVAILABLE SQLite connections run on node:sqlite, built into Node\.js 22\.16 or later/);
});

test('sqlite URLs and attributes', { skip: NO_SQLITE }, () => {
  assert.deepEqual(diagnostics(connection('  url = "sqlite::memory:"')), []);
  assert.deepEqual(diagnostics(connection('  url = "sqlite:data/app.db"\n  busy_timeout = "2s"\n  migrations = "migrations"')), []);
  const model = build(connection('  url = "sqlite:app.db"\n  busy_timeout = "250ms"')).model!;
  assert.equal(model.connections.get('sqlite.db')!.busyTimeoutMs, 250);
  assert.deepEqual(
    diagnostics(connection('  url = "sqlite:"')).map((d) => d.split(' ').slice(0, 2).join(' ')),
    ['2:9 SVC_CONNECTION_INVALID_URL'],
  );
  assert.deepEqual(
    diagnostics(connection('  url = "postgres://x/y"')).map((d) => d.split(' ').slice(0, 2).join(' ')),
    ['2:9 SVC_CONNECTION_INVALID_URL'],
  );
  // PostgreSQL's own settings are refused by name.
  for (const attribute of ['statement_timeout = "1s"', 'prepared_statements = false']) {
    const found = diagnostics(connection(`  url = "sqlite:app.db"\n  ${attribute}`));
    assert.equal(found.length, 1, `${attribute}: ${found.join('\n')}`);
    assert.match(found[0]!, /^3:3 SVC_MANIFEST_UNSUPPORTED_ARGUMENT/);
  }
  assert.match(diagnostics(connection('  url = "sqlite:app.db"\n  pool {\n    max = 2\n  }'))[0]!, /^3:3 SVC_MANIFEST_UNSUPPORTED_BLOCK/);
});

test('with several workers: sqlite::memory: is refused (one database per worker), a file is not', { skip: NO_SQLITE }, () => {
  const memory = build(connection('  url = "sqlite::memory:"')).model!;
  const refused = checkProcessLocalConnections(memory.connections.values(), 2, 'the command line');
  assert.deepEqual(
    refused.map((d) => codeOf(d)),
    ['SVC_CONNECTION_PROCESS_LOCAL_DATABASE'],
  );
  assert.match(refused[0]!.detail!, /sqlite::memory:.*each worker would have its own/);
  const file = build(connection('  url = "sqlite:app.db"')).model!;
  assert.deepEqual(checkProcessLocalConnections(file.connections.values(), 'auto', 'the command line'), []);
  assert.deepEqual(checkProcessLocalConnections(memory.connections.values(), 1, 'the command line'), []);
});

test('a database directory that cannot be made is a diagnostic at the url (no driver needed)', async () => {
  const scratch = await scratchDir();
  try {
    writeFileSync(join(scratch.dir, 'plain'), 'a regular file, not a directory');
    // Built by hand: on a Node.js without node:sqlite the manifest does not build, but the check runs.
    const urlRange = { filename: 'main.hcl', start: { line: 2, column: 9, byte: 34 }, end: { line: 2, column: 30, byte: 55 } };
    const at = (url: string) => [{ ...sqliteConnection(url, { name: 'db' }), urlRange }];
    const through = await checkSqliteDirectories(at(`sqlite:${scratch.dir}/plain/data/app.db`));
    assert.deepEqual(
      through.map((d) => `${d.subject?.start.line}:${d.subject?.start.column} ${codeOf(d)}`),
      ['2:9 SVC_CONNECTION_SQLITE_DIRECTORY'],
    );
    assert.match(through[0]!.detail!, /^The database file is .*\/plain\/data\/app\.db, but .*\/plain is not a directory\./);
    if (process.platform === 'linux') {
      const proc = await checkSqliteDirectories(at('sqlite:/proc/self/svc-test/app.db'));
      assert.deepEqual(proc.map(codeOf), ['SVC_CONNECTION_SQLITE_DIRECTORY']);
      assert.match(proc[0]!.detail!, /the directory \/proc\/self\/svc-test cannot be made: ENOENT/);
    }
    // A directory that can be made is made (as opening would), and is no diagnostic; nor is memory.
    assert.deepEqual(await checkSqliteDirectories(at(`sqlite:${scratch.dir}/a/b/app.db`)), []);
    assert.ok(statSync(join(scratch.dir, 'a', 'b')).isDirectory());
    assert.deepEqual(await checkSqliteDirectories(at('sqlite::memory:')), []);
  } finally {
    await scratch.remove();
  }
});

test('svc serve prints it with the file, line and column, and serves nothing', { skip: NO_SQLITE }, async () => {
  const scratch = await scratchDir();
  try {
    writeFileSync(join(scratch.dir, 'plain'), '');
    writeFileSync(join(scratch.dir, 'main.hcl'), connection('  url = "sqlite:plain/app.db"'));
    const text = await svc(['serve', '-c', scratch.dir, '--port', '0']);
    assert.equal(text.code, 1);
    assert.match(text.stderr, /Error: SQLite database directory unusable/);
    assert.match(text.stderr, /main\.hcl line 2, in connection "sqlite" "db"/);
    assert.match(text.stderr, /url = "sqlite:plain\/app\.db"/);
    const json = await svc(['serve', '-c', scratch.dir, '--port', '0', '--diagnostics=json']);
    const [found] = (JSON.parse(json.stderr) as { diagnostics: { code: string; range: { start: { line: number; column: number } } }[] }).diagnostics;
    assert.deepEqual([found!.code, found!.range.start.line, found!.range.start.column], ['SVC_CONNECTION_SQLITE_DIRECTORY', 2, 9]);
  } finally {
    await scratch.remove();
  }
});
