/**
 * MySQL/MariaDB statements described without running them (docs/mysql.md "Checking queries"),
 * in-process on the real server: `svc openapi --database` on a database with pending migrations
 * (applied in a scratch database, dropped after) typing the columns from their definitions and held
 * to real rows of the connector, a refused query located inside the query, a declared schema the
 * columns cannot satisfy, and `check_queries = true` refusing the boot.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { bootQueryCheck, QueriesRefused } from '../../src/cli/boot-query-check.js';
import { loadService, type Booted } from '../../src/cli/boot.js';
import { checkQueriesOnDatabases, databaseTargets } from '../../src/cli/query-check.js';
import { codeOf } from '../../src/diag/index.js';
import { compileOpenApi } from '../../src/openapi/index.js';
import { describedRowSchema } from '../../src/openapi/sql-types.js';
import { tempDir } from '../connectors/helpers.js';
import { describedManifest } from '../sql-suite/describe-manifest.js';
import { adminQuery, dropDatabases, freshDatabase, NO_MYSQL } from './helpers.js';

after(dropDatabases);

const MIGRATION = `CREATE TABLE issues (
  id         BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  title      VARCHAR(200) NOT NULL,
  priority   INT NOT NULL DEFAULT 0,
  amount     DECIMAL(10, 2),
  done       BOOLEAN NOT NULL DEFAULT FALSE,
  due        DATE,
  created_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  updated    DATETIME,
  meta       JSON,
  photo      BLOB
);
`;

/** Line 11 holds the heredoc's SELECT (the assertions name lines and columns). */
function manifest(url: string, select: string, extra = '', where = 'priority >= @min'): string {
  return describedManifest('mysql', url, select, extra, where);
}

const GOOD_SELECT = 'SELECT id, title, priority, amount, done, due, created_at, updated, meta, photo, priority > 1 AS high';

async function booted(url: string, select: string, extra = '', where?: string): Promise<Booted> {
  const dir = await tempDir('svc-mysql-describe-');
  await mkdir(join(dir, 'migrations'));
  await writeFile(join(dir, 'migrations', '001_issues.sql'), MIGRATION);
  await writeFile(join(dir, 'main.hcl'), manifest(url, select, extra, where));
  const loaded = await loadService(dir);
  assert.ok(loaded.booted, loaded.diagnostics.map((d) => `${d.summary}: ${d.detail}`).join('\n'));
  return loaded.booted;
}

async function tablesOf(url: string): Promise<string[]> {
  return (await adminQuery<{ name: string }[]>(url, 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()')).map(
    (r) => r.name,
  );
}

async function scratchDatabases(url: string): Promise<string[]> {
  return (
    await adminQuery<{ name: string }[]>(url, "SELECT schema_name AS name FROM information_schema.schemata WHERE schema_name LIKE 'svc\\_check\\_%'")
  ).map((r) => r.name);
}

type Schema = { properties: Record<string, Schema>; items: Schema; [k: string]: unknown };

describe('mysql: queries described without running them', { skip: NO_MYSQL }, () => {
  test('svc openapi --database types the columns from their definitions; pending migrations go to a scratch database; real rows satisfy the schema', async () => {
    const url = await freshDatabase();
    const { model, connectors } = await booted(url, GOOD_SELECT);
    const checked = await checkQueriesOnDatabases(model, databaseTargets([url], model));
    // Only the contract's findings: Issue's title is declared integer over VARCHAR, owner is not selected.
    assert.deepEqual(
      checked.diagnostics.map((d) => [codeOf(d), d.severity, d.subject?.start.line]),
      [
        ['SVC_SCHEMA_FIELD_TYPE_MISMATCH', 'warning', 40],
        ['SVC_SCHEMA_FIELD_NOT_IN_QUERY', 'warning', 40],
      ],
    );
    // The migrations were applied elsewhere, and that database is gone: the user's is untouched.
    assert.deepEqual(await tablesOf(url), []);
    assert.deepEqual(await scratchDatabases(url), []);

    const document = compileOpenApi(model, { sqlColumns: checked.columns }) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: Schema }> }> }>>;
    };
    const list = document.paths['/issues']!.get!.responses['200']!.content['application/json']!.schema;
    assert.deepEqual(list.properties.items!.items.properties, {
      id: { type: 'integer' },
      title: { type: 'string' },
      priority: { type: 'integer' },
      amount: { type: ['string', 'null'], pattern: '^-?\\d+(\\.\\d+)?$' }, // DECIMAL: its text
      done: { type: 'boolean' }, // TINYINT(1)
      due: { type: ['string', 'null'], format: 'date' },
      created_at: { type: 'string', format: 'date-time' }, // TIMESTAMP: RFC 3339 in UTC
      updated: { type: ['string', 'null'] }, // DATETIME: no offset
      meta: {}, // JSON: parsed, anything
      photo: { type: ['string', 'null'], contentEncoding: 'base64' },
      high: { type: 'integer' }, // a comparison: 0 or 1, never null here
    });
    const count = document.paths['/issues']!.get!.responses['200']!.content['application/json']!.schema.properties.total;
    assert.deepEqual(count, { type: 'integer' }); // COUNT(*): NOT NULL in its definition

    // The schema and the connector's answer agree, on rows of every kind of value.
    await connectors.openAll();
    try {
      const db = connectors.handle('mysql', 'db');
      await db.query(`INSERT INTO issues (title, priority, amount, done, due, updated, meta, photo) VALUES
        ('a', 2, 12.50, TRUE, '2024-05-06', '2024-05-06 07:08:09.5', '{"k": [1, 2]}', x'00ff'),
        ('b', 0, NULL, FALSE, NULL, NULL, NULL, NULL)`);
      const listColumns = [...checked.columns.entries()].find(([step]) => (step as { name?: string }).name === 'list')![1];
      const rows = (await db.query({ text: `${GOOD_SELECT} FROM issues WHERE priority >= ? ORDER BY id`, values: [0] })).rows;
      assert.equal(rows.length, 2);
      const validate = new Ajv2020({ strict: false, formats: { date: true, 'date-time': true } }).compile(describedRowSchema(listColumns));
      for (const row of rows) assert.ok(validate(JSON.parse(JSON.stringify(row))), `${JSON.stringify(row)}: ${JSON.stringify(validate.errors)}`);
      assert.deepEqual(
        { ...rows[0], created_at: typeof rows[0]!.created_at },
        {
          id: 1,
          title: 'a',
          priority: 2,
          amount: '12.50',
          done: true,
          due: '2024-05-06',
          created_at: 'string',
          updated: '2024-05-06T07:08:09',
          meta: { k: [1, 2] },
          photo: 'AP8=',
          high: 1,
        },
      );
      // With every migration recorded, the check describes on the database itself.
      const again = await checkQueriesOnDatabases(model, databaseTargets([`db=${url}`], model));
      assert.equal(again.diagnostics.filter((d) => d.severity === 'error').length, 0);
      assert.deepEqual([...again.columns.values()], [...checked.columns.values()]);
    } finally {
      await connectors.closeAll();
    }
  });

  test('a refused query is a diagnostic at the place the server names, through the @name translation', async () => {
    const url = await freshDatabase();
    const source = await booted(url, 'SELECT id, titel, priority');
    const checked = await checkQueriesOnDatabases(source.model, databaseTargets([`db=${url}`], source.model));
    const refused = checked.diagnostics.filter((d) => codeOf(d) === 'SVC_STEP_SQL_REFUSED');
    assert.deepEqual(
      refused.map((d) => [d.subject?.start.line, d.subject?.start.column]),
      [[11, 20]],
    );
    assert.match(refused[0]!.detail!, /Unknown column 'titel' in '.*' \(SQLSTATE 42S22\)\. Checked on mysql:\/\//);
    assert.match(refused[0]!.detail!, /Server error 1054 \(ER_BAD_FIELD_ERROR\)/);
    // After a parameter: `?` is shorter than `@min`, and the place is counted back through it.
    // `         WHERE priority >= @min AND nope = 1`: "nope" in column 37 of line 13.
    const after = await booted(url, 'SELECT id, title', '', 'priority >= @min AND nope = 1');
    const [late] = (await checkQueriesOnDatabases(after.model, databaseTargets([url], after.model))).diagnostics;
    assert.deepEqual([codeOf(late!), late!.subject?.start.line, late!.subject?.start.column], ['SVC_STEP_SQL_REFUSED', 13, 37]);
    // A syntax error: where the rest of the text the server quotes starts.
    const syntax = await booted(url, 'SELECT id, title priority extra');
    const bad = await checkQueriesOnDatabases(syntax.model, databaseTargets([url], syntax.model));
    const [d] = bad.diagnostics.filter((x) => codeOf(x) === 'SVC_STEP_SQL_REFUSED');
    assert.match(d!.detail!, /near 'extra/);
    // `        SELECT id, title priority extra`: "extra" in column 35 of line 11.
    assert.deepEqual([d!.subject?.start.line, d!.subject?.start.column], [11, 35]);
  });

  test('check_queries = true refuses the boot on a refused query, and types the document on good ones', async () => {
    const url = await freshDatabase();
    const bad = await booted(url, 'SELECT id, titel', '  check_queries = true');
    await bad.connectors.openAll();
    try {
      await assert.rejects(bootQueryCheck(bad), (e: unknown) => e instanceof QueriesRefused && /Unknown column 'titel'/.test(e.message));
    } finally {
      await bad.connectors.closeAll();
    }
    const good = await booted(url, GOOD_SELECT, '  check_queries = true');
    await good.connectors.openAll();
    try {
      const columns = await bootQueryCheck(good);
      assert.equal(columns.size, 3);
    } finally {
      await good.connectors.closeAll();
    }
  });
});
