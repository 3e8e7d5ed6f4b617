/**
 * Queries checked against the database: `svc check --database`, `svc openapi --database`,
 * `check_queries = true` at `svc serve`'s boot, and the log line of a statement refused at run time.
 * On the real PostgreSQL server (a fresh database per test) and on PGlite (`--database pglite:`, an
 * in-memory engine the check starts; a `pglite:<dir>` connection for what is served).
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import openapiTS from 'openapi-typescript';
import { createConnectors } from '../../src/connectors/index.js';
import { closeTargets, serve, TARGETS } from '../postgres/helpers.js';
import { cleanup, modelOf, postgresConnection, tempDir } from '../connectors/helpers.js';
import { lintProblems, validationErrors } from '../openapi/checks.js';
import { ROOT } from '../paths.js';
import { svc } from './helpers.js';
import { get, kill, serve as serveProcess } from './serve-helpers.js';

after(async () => {
  await closeTargets();
  await cleanup();
});

const MIGRATION = `CREATE TABLE issues (
  id serial PRIMARY KEY,
  title text NOT NULL,
  priority int4 NOT NULL DEFAULT 0,
  views int8 NOT NULL DEFAULT 0,
  done boolean NOT NULL DEFAULT false,
  amount numeric(10, 2),
  created_at timestamptz NOT NULL DEFAULT now()
);
`;

/** The manifest's lines, numbered as the assertions name them (line 12 holds the heredoc's SELECT). */
function manifest(select: string): string {
  return [
    'connection "postgres" "db" {', // 1
    '  url        = "pglite:"', // 2
    '  migrations = "migrations"', // 3
    '}', // 4
    '', // 5
    'endpoint "GET /issues" {', // 6
    '  pipeline {', // 7
    '    sql "list" {', // 8
    '      connection = "db"', // 9
    '      args       = { min = 0 }', // 10
    '      query      = <<-SQL', // 11
    `        ${select}`, // 12
    '          FROM issues', // 13
    '         WHERE priority >= @min', // 14
    '      SQL', // 15
    '    }', // 16
    '    sql "count" {', // 17
    '      connection = "db"', // 18
    '      query      = "SELECT count(*)::int AS n FROM issues"', // 19
    '    }', // 20
    '    respond {', // 21
    '      body = { items = steps.list.rows, total = steps.count.row.n }', // 22
    '    }', // 23
    '  }', // 24
    '}', // 25
    '', // 26
    'endpoint "POST /issues" {', // 27
    '  pipeline {', // 28
    '    sql "add" {', // 29
    '      connection = "db"', // 30
    '      args       = { title = "x" }', // 31
    '      query      = "INSERT INTO issues (title) VALUES (@title) RETURNING id"', // 32
    '    }', // 33
    '    sql "clear" {', // 34
    '      connection = "db"', // 35
    '      query      = "DELETE FROM issues"', // 36
    '    }', // 37
    '    respond {', // 38
    '      status = 201', // 39
    '      body   = steps.add.row', // 40
    '    }', // 41
    '  }', // 42
    '}', // 43
    '',
  ].join('\n');
}

const GOOD_SELECT = 'SELECT id, title, priority, views, done, amount, created_at';

async function manifestDir(source: string): Promise<string> {
  const dir = await tempDir('svc-check-db-');
  await mkdir(join(dir, 'migrations'));
  await writeFile(join(dir, 'migrations', '001_issues.sql'), MIGRATION);
  await writeFile(join(dir, 'main.hcl'), source);
  return dir;
}

interface JsonDiagnostic {
  readonly code: string;
  readonly detail: string;
  readonly range: { readonly filename: string; readonly start: { readonly line: number; readonly column: number } };
}

/** What `--database` is given on each target: PGlite in memory, or a fresh database of the server. */
async function databaseOf(target: (typeof TARGETS)[number]): Promise<string> {
  return target.name === 'pglite' ? 'pglite:' : target.fresh();
}

/** Rows of `sql` on the database at `url`, through a connector of the test's own. */
async function query(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const set = createConnectors(modelOf(postgresConnection(url, { name: 'probe' })));
  await set.openAll();
  try {
    return (await set.handle('postgres', 'probe').query(sql)).rows;
  } finally {
    await set.closeAll();
  }
}

for (const target of TARGETS) {
  describe(`svc check --database on ${target.name}`, { skip: target.skip }, () => {
    test('an unknown column is reported at its line and column inside the heredoc, with the server hint', async () => {
      const dir = await manifestDir(manifest('SELECT id, titel, priority'));
      const ran = await svc(['check', '-c', dir, '--database', await databaseOf(target), '--diagnostics=json']);
      assert.equal(ran.code, 1, ran.stderr);
      const report = JSON.parse(ran.stdout) as { diagnostics: JsonDiagnostic[] };
      assert.equal(report.diagnostics.length, 1, ran.stdout);
      const [d] = report.diagnostics;
      assert.equal(d!.code, 'SVC_STEP_SQL_REFUSED');
      assert.equal(d!.range.filename, join(dir, 'main.hcl'));
      // Line 12 is `        SELECT id, titel, priority`: "titel" starts in column 20.
      assert.deepEqual([d!.range.start.line, d!.range.start.column], [12, 20]);
      assert.match(d!.detail, /column "titel" does not exist \(SQLSTATE 42703\)/);
      assert.match(d!.detail, /Hint: .*"issues\.title"/);
    });

    test('an error after a parameter is located through the @name translation, in a quoted string too', async () => {
      // `$1` is shorter than `@min`: the server's position is counted in the translated text.
      const source = manifest(GOOD_SELECT).replace('WHERE priority >= @min', 'WHERE priority >= @min AND nope = 1');
      const quoted = source.replace('"SELECT count(*)::int AS n FROM issues"', '"SELECT count(*)::int AS \\"n\\" FROM issuez"');
      const ran = await svc(['check', '-c', await manifestDir(quoted), '--database', await databaseOf(target), '--diagnostics=json']);
      assert.equal(ran.code, 1, ran.stderr);
      const found = (JSON.parse(ran.stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics.map((d) => [d.range.start.line, d.range.start.column]);
      // `         WHERE priority >= @min AND nope`: "nope" in column 37 of line 14; in line 19,
      // `      query      = "SELECT count(*)::int AS \"n\" FROM issuez"`: "issuez" in column 56
      // (each \" two characters of the line, one of the query).
      assert.deepEqual(found, [
        [14, 37],
        [19, 56],
      ]);
    });

    test('a good manifest passes and says how many queries it checked', async () => {
      const ran = await svc(['check', '-c', await manifestDir(manifest(GOOD_SELECT)), '--database', await databaseOf(target)]);
      assert.equal(ran.code, 0, ran.stderr);
      assert.match(ran.stdout, /^ok: 2 endpoints, .*, 4 queries checked on the database\n$/);
    });

    test('svc openapi --database types the rows from the described columns', async () => {
      const ran = await svc(['openapi', '-c', await manifestDir(manifest(GOOD_SELECT)), '--database', await databaseOf(target)]);
      assert.equal(ran.code, 0, ran.stderr);
      const document = JSON.parse(ran.stdout) as {
        paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: Schema }> }> }>>;
      };
      type Schema = { properties: Record<string, Schema>; items: Schema; [k: string]: unknown };
      const list = document.paths['/issues']!.get!.responses['200']!.content['application/json']!.schema;
      assert.deepEqual(list.properties.items!.items.properties, {
        id: { type: 'integer' },
        title: { type: 'string' },
        priority: { type: 'integer' },
        views: { type: 'integer' }, // int8: svc writes the exact integer
        done: { type: 'boolean' },
        amount: { type: ['string', 'null'], pattern: '^-?\\d+(\\.\\d+)?$|^NaN$|^-?Infinity$' }, // numeric: its decimal text
        created_at: { type: 'string', format: 'date-time' },
      });
      // A cast names the type; an expression may be null as far as the database can tell.
      assert.deepEqual(list.properties.total, { type: ['integer', 'null'] });
      const added = document.paths['/issues']!.post!.responses['201']!.content['application/json']!.schema;
      assert.deepEqual(added.properties, { id: { type: 'integer' } });
      // Still a valid OpenAPI 3.1 document, with no linter error.
      assert.deepEqual(await validationErrors(document), []);
      assert.deepEqual(
        (await lintProblems(document)).filter((p) => p.severity === 'error'),
        [],
      );
    });
  });
}

describe('svc check --database on the real server leaves the database as it was', { skip: TARGETS[1]!.skip }, () => {
  test('no statement runs, the migrations are rolled back, nothing is recorded', async () => {
    const url = await TARGETS[1]!.fresh();
    // A table of the same name holding a row, in a database that never ran svc's migrations.
    await query(url, "CREATE TABLE issues (id serial PRIMARY KEY, title text NOT NULL); INSERT INTO issues (title) VALUES ('kept')");
    const dir = await manifestDir(manifest(GOOD_SELECT));
    // The migration's CREATE TABLE fails on the existing table: reported, nothing checked.
    const refused = await svc(['check', '-c', dir, '--database', url, '--diagnostics=json']);
    assert.equal(refused.code, 1);
    const [d] = (JSON.parse(refused.stdout) as { diagnostics: (JsonDiagnostic & { summary: string })[] }).diagnostics;
    assert.equal(d!.code, 'SVC_CONNECTION_QUERIES_NOT_CHECKED');
    assert.match(d!.detail, /001_issues\.sql failed: relation "issues" already exists/);
    // Without the table, the check applies the migration, describes INSERT and DELETE, rolls back.
    await query(url, 'DROP TABLE issues');
    const ok = await svc(['check', '-c', dir, '--database', url]);
    assert.equal(ok.code, 0, ok.stderr);
    const left = await query(url, "SELECT to_regclass('issues') AS issues, to_regclass('svc_migrations') AS migrations");
    assert.deepEqual(left, [{ issues: null, migrations: null }]);
  });

  test('a migration holding its own COMMIT is not applied: it would commit into the database', async () => {
    const url = await TARGETS[1]!.fresh();
    const dir = await manifestDir(manifest(GOOD_SELECT));
    // A COMMIT in a function body or a comment is no statement of the file's; the last line is.
    const body = 'CREATE FUNCTION f() RETURNS void LANGUAGE plpgsql AS $$ BEGIN COMMIT; END $$; -- COMMIT;\n';
    await writeFile(join(dir, 'migrations', '002_more.sql'), `${body}CREATE TABLE later (id int);\nCOMMIT;\n`);
    const ran = await svc(['check', '-c', dir, '--database', url, '--diagnostics=json']);
    assert.equal(ran.code, 1);
    const [d] = (JSON.parse(ran.stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics;
    assert.equal(d!.code, 'SVC_CONNECTION_QUERIES_NOT_CHECKED');
    assert.match(d!.detail, /002_more\.sql holds "COMMIT": it would end the check's transaction/);
    const left = await query(url, "SELECT to_regclass('issues') AS issues, to_regclass('later') AS later");
    assert.deepEqual(left, [{ issues: null, later: null }]);
  });

  test('a connection given by name, and usage errors for a wrong one', async () => {
    const dir = await manifestDir(manifest(GOOD_SELECT));
    const url = await TARGETS[1]!.fresh();
    assert.equal((await svc(['check', '-c', dir, '--database', `db=${url}`])).code, 0);
    const unknown = await svc(['check', '-c', dir, '--database', `other=${url}`]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no SQL connection "other" \(declared: db\)/);
    const directory = await svc(['check', '-c', dir, '--database', 'pglite:./data']);
    assert.equal(directory.code, 2);
    assert.match(directory.stderr, /pglite directory is not opened/);
  });

  test('an unreachable database is a diagnostic on the connection, not a crash', async () => {
    const dir = await manifestDir(manifest(GOOD_SELECT));
    const ran = await svc(['check', '-c', dir, '--database', 'postgres://nobody@127.0.0.1:1/none', '--diagnostics=json']);
    assert.equal(ran.code, 1);
    const [d] = (JSON.parse(ran.stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics;
    assert.equal(d!.code, 'SVC_CONNECTION_QUERIES_NOT_CHECKED');
    assert.equal(d!.range.start.line, 2);
  });
});

for (const target of TARGETS) {
  describe(`served on ${target.name}`, { skip: target.skip }, () => {
    test('the boot check (handle.describe) runs nothing: an INSERT and a DELETE described, the rows unchanged', async () => {
      const url = await target.fresh();
      const s = await serve(
        `connection "postgres" "db" { url = "{{DB}}" }
         endpoint "GET /x" {
           pipeline {
             respond { body = {} }
           }
         }`,
        url,
      );
      try {
        await s.db.query("CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL); INSERT INTO notes (body) VALUES ('one')");
        const reports = await s.db.describe(['INSERT INTO notes (body) VALUES ($1) RETURNING id, body', 'DELETE FROM notes', 'SELECT bodi FROM notes']);
        assert.deepEqual(
          reports.map((r) => r.ok),
          [true, true, false],
        );
        assert.deepEqual(reports[0]!.ok && reports[0]!.columns, [
          { name: 'id', typeOid: 23, notNull: true },
          { name: 'body', typeOid: 25, notNull: true },
        ]);
        assert.equal(reports[1]!.ok && reports[1]!.columns, undefined);
        assert.equal(!reports[2]!.ok && reports[2]!.error.position, 8);
        assert.deepEqual((await s.db.query('SELECT body FROM notes')).rows, [{ body: 'one' }]);
        // Nothing stays open on the pooled client: a transaction would make this a nested BEGIN warning.
        assert.deepEqual((await s.db.query("SELECT current_setting('transaction_isolation') IS NOT NULL AS ok")).rows, [{ ok: true }]);
      } finally {
        await s.close();
      }
    });

    test('a statement refused at run time is logged once with the file, the line and its place in the query', async () => {
      const s = await serve(
        [
          'connection "postgres" "db" { url = "{{DB}}" }', // 1
          'endpoint "GET /x" {', // 2
          '  pipeline {', // 3
          '    sql "q" {', // 4
          '      connection = "db"', // 5
          '      query = <<-SQL', // 6
          '        SELECT 1 AS one,', // 7
          '               nam FROM pg_class', // 8
          '      SQL', // 9
          '    }', // 10
          '    respond { body = steps.q.row }', // 11
          '  }', // 12
          '}', // 13
        ].join('\n'),
        await target.fresh(),
      );
      try {
        const res = await s.app.inject({ method: 'GET', url: '/x' });
        assert.equal(res.statusCode, 500);
        assert.doesNotMatch(res.body, /nam|pg_class|42703/, 'no internals for the client');
        const line = s.log.requests().find((l) => l.msg === 'request failed')!;
        const err = line.err as { message: string; stack: string; code: string };
        assert.equal(err.message, 'sql "q" (api.hcl:4): column "nam" does not exist (SQLSTATE 42703, at api.hcl:8:16)');
        assert.equal(err.stack, `ConnectorError: ${err.message}`, 'no stack of svc, no cause repeated');
        assert.equal(err.code, '42703');
      } finally {
        await s.close();
      }
    });

    test('a streamed statement refused at run time is logged the same way', async () => {
      const s = await serve(
        [
          'connection "postgres" "db" { url = "{{DB}}" }', // 1
          'endpoint "GET /x" {', // 2
          '  pipeline {', // 3
          '    sql "q" {', // 4
          '      connection = "db"', // 5
          '      stream     = true', // 6
          '      query      = "SELECT nam FROM pg_class"', // 7
          '    }', // 8
          '    stream "ndjson" { source = steps.q.stream }', // 9
          '  }', // 10
          '}', // 11
        ].join('\n'),
        await target.fresh(),
      );
      try {
        const res = await s.app.inject({ method: 'GET', url: '/x' });
        assert.equal(res.statusCode, 500);
        assert.doesNotMatch(res.body, /nam|pg_class|42703/, 'no internals for the client');
        const err = s.log.requests().find((l) => l.msg === 'request failed')!.err as { message: string; code: string };
        assert.equal(err.message, 'sql "q" (api.hcl:4): column "nam" does not exist (SQLSTATE 42703, at api.hcl:7:28)');
        assert.equal(err.code, '42703');
      } finally {
        await s.close();
      }
    });
  });
}

test("the typed document gives a generated client the columns' types (openapi-typescript, then tsc)", async () => {
  const ran = await svc(['openapi', '-c', await manifestDir(manifest(GOOD_SELECT)), '--database', 'pglite:']);
  assert.equal(ran.code, 0, ran.stderr);
  const dir = await tempDir('svc-check-db-client-');
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  await writeFile(join(dir, 'api.ts'), await openapiTS(JSON.parse(ran.stdout) as Parameters<typeof openapiTS>[0]));
  const prelude =
    "import type { paths } from './api.js';\ntype List = paths['/issues']['get']['responses'][200]['content']['application/json'];\ndeclare const list: List;\nconst issue = list.items[0]!;\n";
  await writeFile(
    join(dir, 'client.ts'),
    `${prelude}export const next: number = issue.priority + 1;\nexport const title: string = issue.title.toUpperCase();\nexport const done: boolean = issue.done;\nexport const total: number | null = list.total;\n`,
  );
  await writeFile(join(dir, 'broken.ts'), `${prelude}export const priority: string = issue.priority;\nexport const amount: string = issue.amount;\n`);
  assert.equal(await typecheck(dir, 'client.ts'), '');
  const errors = await typecheck(dir, 'broken.ts');
  // An integer is no string; a nullable numeric may be null.
  for (const line of [5, 6]) assert.match(errors, new RegExp(`broken\\.ts\\(${line},`), `line ${line} should not type-check:\n${errors}`);
});

test('svc serve with check_queries = true starts on good queries and serves the typed document', async () => {
  const source = `${manifest(GOOD_SELECT).replace('  url        = "pglite:"', '  url           = "pglite:"\n  check_queries = true')}
endpoint "GET /openapi.json" {
  openapi {
    format = "json"
  }
}
`;
  const served = await serveProcess(await manifestDir(source));
  try {
    const answer = await get(`${served.url}/openapi.json`);
    assert.equal(answer.status, 200);
    const document = JSON.parse(answer.body) as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: { properties: Record<string, unknown> } }> }> } }>;
    };
    const list = document.paths['/issues']!.get.responses['200']!.content['application/json']!.schema;
    assert.deepEqual(list.properties.total, { type: ['integer', 'null'] });
    assert.deepEqual((list.properties.items as { items: { properties: Record<string, unknown> } }).items.properties.created_at, {
      type: 'string',
      format: 'date-time',
    });
  } finally {
    kill(served);
    await served.exited;
  }
});

/** `tsc --strict` on one file of `dir`: its errors, '' when it type-checks. */
async function typecheck(dir: string, file: string): Promise<string> {
  const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
  try {
    await promisify(execFile)(
      tsc,
      [
        '--noEmit',
        '--strict',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--types',
        'node',
        '--typeRoots',
        join(ROOT, 'node_modules', '@types'),
        join(dir, file),
      ],
      { cwd: dir },
    );
    return '';
  } catch (error) {
    return (error as { stdout?: string }).stdout ?? String(error);
  }
}

test('svc serve with check_queries = true refuses to start on a refused query', async () => {
  const dir = await manifestDir(manifest('SELECT id, titel').replace('  url        = "pglite:"', '  url           = "pglite:"\n  check_queries = true'));
  const ran = await svc(['serve', '-c', dir, '--port', '0']);
  assert.equal(ran.code, 1);
  assert.match(ran.stderr, /check_queries: the database refuses a query of the manifest/);
  // The connection block gained a line: the SELECT is on line 13.
  assert.match(ran.stderr, /on .*main\.hcl line 13, in endpoint "GET \/issues" > pipeline > sql "list":/);
  assert.match(ran.stderr, /column "titel" does not exist/);
});
