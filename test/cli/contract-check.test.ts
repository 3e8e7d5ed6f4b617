/**
 * A declared response schema held to the rows the database describes (`svc check --database`): a
 * required field the query does not return is an error at the body, a field whose column has
 * another type a warning, and a schema the rows satisfy passes. On in-memory PGlite.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { cleanup, tempDir } from '../connectors/helpers.js';
import { svc } from './helpers.js';

after(cleanup);

const MIGRATION = 'CREATE TABLE users (id serial PRIMARY KEY, name text NOT NULL, email text NOT NULL, age int4);\n';

/** Lines numbered as the assertions name them. */
function manifest(select: string, schema: string): string {
  return [
    'connection "postgres" "db" {', // 1
    '  url        = "pglite:"', // 2
    '  migrations = "migrations"', // 3
    '}', // 4
    '', // 5
    'endpoint "GET /users/{id}" {', // 6
    '  request {', // 7
    '    path {', // 8
    '      field "id" { type = integer }', // 9
    '    }', // 10
    '  }', // 11
    '  pipeline {', // 12
    '    sql "get" {', // 13
    '      connection = "db"', // 14
    `      query      = "${select} FROM users WHERE id = @id"`, // 15
    '      args       = { id = ctx.request.path.id }', // 16
    '    }', // 17
    '    respond {', // 18
    '      schema = schema.user', // 19
    '      body   = steps.get.row', // 20
    '    }', // 21
    '  }', // 22
    '}', // 23
    'endpoint "GET /users" {', // 24
    '  pipeline {', // 25
    '    sql "list" {', // 26
    '      connection = "db"', // 27
    `      query      = "${select} FROM users"`, // 28
    '      stream     = true', // 29
    '    }', // 30
    '    stream "ndjson" {', // 31
    '      source = steps.list.stream', // 32
    '      schema = schema.user', // 33
    '    }', // 34
    '  }', // 35
    '}', // 36
    schema,
    '',
  ].join('\n');
}

const USER = `schema "user" {
  field "id" {
    type     = integer
    required = true
  }
  field "name" {
    type     = string
    required = true
  }
  field "email" {
    type     = string
    required = true
  }
  field "age" {
    type = integer
  }
}`;

interface Reported {
  readonly code: string;
  readonly severity: string;
  readonly detail: string;
  readonly line: number;
}

async function check(select: string, schema: string = USER): Promise<{ code: number; diagnostics: Reported[] }> {
  const dir = await tempDir('svc-contract-');
  await mkdir(join(dir, 'migrations'));
  await writeFile(join(dir, 'migrations', '001_users.sql'), MIGRATION);
  await writeFile(join(dir, 'main.hcl'), manifest(select, schema));
  const ran = await svc(['check', '-c', dir, '--database', 'pglite:', '--diagnostics=json']);
  const json = JSON.parse(ran.stdout) as { diagnostics: { code: string; severity: string; detail: string; range: { start: { line: number } } }[] };
  return { code: ran.code, diagnostics: json.diagnostics.map((d) => ({ code: d.code, severity: d.severity, detail: d.detail, line: d.range.start.line })) };
}

test('rows that satisfy the declared schema pass', async () => {
  const ran = await check('SELECT id, name, email, age');
  assert.deepEqual(ran.diagnostics, []);
  assert.equal(ran.code, 0);
});

test('an optional field the query never returns is a warning (a misspelt column, most often)', async () => {
  const ran = await check('SELECT id, name, email');
  assert.equal(ran.code, 0);
  assert.deepEqual(
    ran.diagnostics.map((d) => [d.code, d.severity, d.line]),
    [
      ['SVC_SCHEMA_FIELD_NOT_IN_QUERY', 'warning', 20],
      ['SVC_SCHEMA_FIELD_NOT_IN_QUERY', 'warning', 32],
    ],
  );
  assert.match(
    ran.diagnostics[0]!.detail,
    /schema\.user declares "age", which the query of sql "get" does not return \(it returns id, name, email\): the answer never has it/,
  );
});

test('a required field the query does not return is an error at the body, for a row and for streamed items', async () => {
  const ran = await check('SELECT id, name, age');
  assert.notEqual(ran.code, 0);
  assert.deepEqual(
    ran.diagnostics.map((d) => [d.code, d.severity, d.line]),
    [
      ['SVC_SCHEMA_FIELD_NOT_IN_QUERY', 'error', 20],
      ['SVC_SCHEMA_FIELD_NOT_IN_QUERY', 'error', 32],
    ],
  );
  assert.match(ran.diagnostics[0]!.detail, /schema\.user requires "email", which the query of sql "get" does not return \(it returns id, name, age\)/);
});

test('a field whose column has another type is a warning naming both', async () => {
  const ran = await check('SELECT id, name, email, age::text AS age');
  assert.equal(ran.code, 0);
  assert.deepEqual(
    ran.diagnostics.map((d) => [d.code, d.severity, d.line]),
    [
      ['SVC_SCHEMA_FIELD_TYPE_MISMATCH', 'warning', 20],
      ['SVC_SCHEMA_FIELD_TYPE_MISMATCH', 'warning', 32],
    ],
  );
  assert.match(ran.diagnostics[0]!.detail, /declares "age" as integer; the query of sql "get" returns it as string/);
});
