/**
 * SQLite statements described without running them (docs/sqlite.md "Checking queries"), in-process:
 * `svc check --database` / `svc openapi --database` on `sqlite::memory:` and on a file (left as it
 * was), the OpenAPI document typed from the declared column types and held to real rows of the
 * connector, a refused query located inside the query, a declared schema the columns cannot
 * satisfy, `check_queries = true` refusing the boot, and a file URL under /proc refused at open.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { bootQueryCheck, QueriesRefused } from '../../src/cli/boot-query-check.js';
import { loadService, type Booted } from '../../src/cli/boot.js';
import { UsageError } from '../../src/cli/args.js';
import { checkQueriesOnDatabases, databaseTargets } from '../../src/cli/query-check.js';
import { codeOf } from '../../src/diag/index.js';
import { compileOpenApi } from '../../src/openapi/index.js';
import { describedRowSchema } from '../../src/openapi/sql-types.js';
import { cleanup, tempDir } from '../connectors/helpers.js';
import { describedManifest } from '../sql-suite/describe-manifest.js';
import { openSqliteSet, SQLITE_ONLY } from './helpers.js';

after(cleanup);

const MIGRATION = `CREATE TABLE issues (
  id       INTEGER PRIMARY KEY,
  title    TEXT NOT NULL,
  priority INTEGER NOT NULL DEFAULT 0,
  amount   DECIMAL(10, 2),
  done     BOOLEAN NOT NULL DEFAULT 0,
  due      DATE,
  meta     JSON,
  ratio    REAL,
  photo    BLOB
);
`;

/** Line 11 holds the heredoc's SELECT (the assertions name lines and columns). */
function manifest(select: string, extra = ''): string {
  return describedManifest('sqlite', 'sqlite:app.db', select, extra);
}

const GOOD_SELECT = 'SELECT id, title, priority, amount, done, due, meta, ratio, photo, priority + 1 AS next';

async function manifestDir(source: string): Promise<string> {
  const dir = await tempDir('svc-sqlite-describe-');
  await mkdir(join(dir, 'migrations'));
  await writeFile(join(dir, 'migrations', '001_issues.sql'), MIGRATION);
  await writeFile(join(dir, 'main.hcl'), source);
  return dir;
}

async function booted(dir: string): Promise<Booted> {
  const loaded = await loadService(dir);
  assert.ok(loaded.booted, loaded.diagnostics.map((d) => `${d.summary}: ${d.detail}`).join('\n'));
  return loaded.booted;
}

type Schema = { properties: Record<string, Schema>; items: Schema; [k: string]: unknown };

describe('sqlite: queries described without running them', SQLITE_ONLY, () => {
  test('svc openapi --database sqlite::memory: types the columns from their declared types, and real rows satisfy them', async () => {
    const dir = await manifestDir(manifest(GOOD_SELECT));
    const { model } = await booted(dir);
    const checked = await checkQueriesOnDatabases(model, databaseTargets(['sqlite::memory:'], model));
    // Only the contract's findings: Issue's title is declared integer over TEXT, owner is not selected.
    assert.deepEqual(
      checked.diagnostics.map((d) => [codeOf(d), d.severity, d.subject?.start.line]),
      [
        ['SVC_SCHEMA_FIELD_TYPE_MISMATCH', 'warning', 40],
        ['SVC_SCHEMA_FIELD_NOT_IN_QUERY', 'warning', 40],
      ],
    );
    const document = compileOpenApi(model, { sqlColumns: checked.columns }) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: Schema }> }> }>>;
    };
    const list = document.paths['/issues']!.get!.responses['200']!.content['application/json']!.schema;
    assert.deepEqual(list.properties.items!.items.properties, {
      id: { type: 'integer' }, // INTEGER PRIMARY KEY: the rowid, never null
      title: { type: 'string' },
      priority: { type: 'integer' },
      amount: { type: ['number', 'null'] }, // DECIMAL: NUMERIC affinity, stored as a number
      done: { type: 'boolean' },
      due: { type: ['string', 'null'] }, // DATE: text as stored
      meta: {}, // JSON: parsed, anything
      ratio: { type: ['number', 'null'] },
      photo: { type: ['string', 'null'], contentEncoding: 'base64' },
      next: {}, // an expression: no declared type
    });
    assert.deepEqual(list.properties.total, {});
    const get = document.paths['/issues/{id}']!.get!.responses['200']!.content['application/json']!.schema;
    assert.equal(get.$ref, '#/components/schemas/Issue');

    // The schema and the connector's answer agree, on rows of every kind of value.
    const file = join(dir, 'rows.db');
    const set = await openSqliteSet(`sqlite:${file}`, { name: 'db', migrations: join(dir, 'migrations') });
    try {
      const db = set.handle('sqlite', 'db');
      await db.query({
        text: `INSERT INTO issues (title, priority, amount, done, due, meta, ratio, photo) VALUES
               ('a', 9007199254740993, 12.50, 1, '2024-05-06', '{"k":[1,2]}', 0.5, x'00ff'),
               ('b', 0, NULL, 0, NULL, NULL, NULL, NULL)`,
      });
      const statement = checked.columns.get([...checked.columns.keys()].find((s) => (s as { name?: string }).name === 'list')!)!;
      const rows = (await db.query({ text: `${GOOD_SELECT} FROM issues WHERE priority >= ?1`, values: [0] })).rows;
      assert.equal(rows.length, 2);
      const validate = new Ajv2020({ strict: false }).compile(describedRowSchema(statement));
      for (const row of rows)
        assert.ok(validate(JSON.parse(JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)))), JSON.stringify(validate.errors));
      assert.deepEqual(
        { ...rows[0], priority: String(rows[0]!.priority) },
        {
          id: 1,
          title: 'a',
          priority: '9007199254740993',
          amount: 12.5,
          done: true,
          due: '2024-05-06',
          meta: { k: [1, 2] },
          ratio: 0.5,
          photo: 'AP8=',
          next: 9007199254740994n,
        },
      );
    } finally {
      await set.closeAll();
    }
  });

  test('a refused query is a diagnostic at the word SQLite names, through the @name translation', async () => {
    const source = manifest('SELECT id, title, priority')
      .replace('WHERE priority >= @min', 'WHERE priority >= @min AND nope = 1')
      .replace('FROM issues"', 'FROM issuez"');
    const { model } = await booted(await manifestDir(source));
    const checked = await checkQueriesOnDatabases(model, databaseTargets(['db=sqlite::memory:'], model));
    const refused = checked.diagnostics.filter((d) => codeOf(d) === 'SVC_STEP_SQL_REFUSED');
    // `         WHERE priority >= @min AND nope = 1`: "nope" in column 37 of line 13 (`?1` is shorter
    // than `@min`: the place is counted back through it); "issuez" in column 64 of line 18.
    assert.deepEqual(
      refused.map((d) => [d.subject?.start.line, d.subject?.start.column]),
      [
        [13, 37],
        [18, 64],
      ],
    );
    assert.match(refused[0]!.detail!, /no such column: nope \(SQLITE_ERROR\)\. Checked on sqlite::memory: \(in memory\)/);
    assert.match(refused[1]!.detail!, /no such table: issuez/);
    // A syntax error points at the token SQLite names.
    const syntax = await booted(await manifestDir(manifest('SELECT id title, FROM')));
    const [d] = (await checkQueriesOnDatabases(syntax.model, databaseTargets(['sqlite::memory:'], syntax.model))).diagnostics;
    assert.match(d!.detail!, /near "FROM": syntax error/);
    assert.deepEqual([d!.subject?.start.line, d!.subject?.start.column], [11, 26]);
  });

  test('on a file: pending migrations applied in a transaction rolled back, nothing left; usage errors say why', async () => {
    const dir = await manifestDir(manifest(GOOD_SELECT));
    const { model } = await booted(dir);
    const file = join(dir, 'existing.db');
    // An existing database that never ran svc's migrations: a table of its own, kept as it is.
    const set = await openSqliteSet(`sqlite:${file}`, { name: 'x' });
    await set.handle('sqlite', 'x').query('CREATE TABLE kept (id INTEGER)');
    await set.closeAll();
    const before = await readFile(file);
    const checked = await checkQueriesOnDatabases(model, databaseTargets([`db=sqlite:${file}`], model));
    assert.deepEqual(
      checked.diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
    assert.equal(checked.columns.size, 3);
    assert.deepEqual(await readFile(file), before);
    const reopened = await openSqliteSet(`sqlite:${file}`, { name: 'x' });
    try {
      const tables = await reopened.handle('sqlite', 'x').query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
      assert.deepEqual(tables.rows, [{ name: 'kept' }]);
    } finally {
      await reopened.closeAll();
    }

    assert.throws(
      () => databaseTargets([`sqlite:${join(dir, 'missing.db')}`], model),
      (e: unknown) => e instanceof UsageError && /missing\.db does not exist/.test(e.message),
    );
    assert.throws(() => databaseTargets(['db=postgres://x/y'], model), /the connection is sqlite: give sqlite:<file>/);
    assert.throws(() => databaseTargets(['mysql://x/y'], model), /the manifest declares no mysql connection \(declared: db\)/);
  });

  test('check_queries = true refuses the boot on a refused query, and types the document on good ones', async () => {
    const bad = await booted(await manifestDir(manifest('SELECT id, titel', '  check_queries = true')));
    await bad.connectors.openAll();
    try {
      await assert.rejects(bootQueryCheck(bad), (e: unknown) => e instanceof QueriesRefused && /no such column: titel/.test(e.message));
    } finally {
      await bad.connectors.closeAll();
    }
    const good = await booted(await manifestDir(manifest(GOOD_SELECT, '  check_queries = true')));
    await good.connectors.openAll();
    try {
      const columns = await bootQueryCheck(good);
      assert.equal(columns.size, 3);
    } finally {
      await good.connectors.closeAll();
    }
  });

  test('a file under /proc is refused at open, not a hang', async () => {
    const set = openSqliteSet('sqlite:/proc/self/svc-test/x.db');
    await assert.rejects(set, /the directory \/proc\/self\/svc-test cannot be made: ENOENT/);
  });
});
