/**
 * A respond's declared `schema` in the document (issue 36): the response of its status is a `$ref` to
 * the named schema (or an array of it) instead of the body inferred from the expression, the schema is
 * emitted once in `components.schemas` for every endpoint that answers with it, and `svc openapi`
 * prints a document that passes the OpenAPI 3.1 validator and the linter (checks.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { svc } from '../cli/helpers.js';
import { lintProblems, validationErrors } from './checks.js';
import { bodySchema, documentOf, type Json } from './helpers.js';

const MANIFEST = `
connection "postgres" "db" {
  url = "pglite:"
}

schema "user" {
  description = "A user, as the API shows it."
  field "id" {
    type     = int
    required = true
  }
  field "email" {
    type     = string
    required = true
    format   = "email"
  }
  field "name" {
    type = string
  }
}

endpoint "GET /users/{id}" {
  request {
    path {
      field "id" {
        type = int
      }
    }
  }
  pipeline {
    sql "find" {
      connection = connection.postgres.db
      query      = "SELECT id, email, name, password_hash FROM users WHERE id = @id"
      args       = { id = ctx.request.path.id }
    }
    respond {
      condition = steps.find.row == null
      body      = problem(404, "No such user")
    }
    respond {
      schema = schema.user
      body   = steps.find.row
    }
  }
}

endpoint "GET /users" {
  pipeline {
    sql "list" {
      connection = connection.postgres.db
      query      = "SELECT * FROM users ORDER BY id"
    }
    respond {
      schema = list(schema.user)
      body   = steps.list.rows
    }
  }
}

endpoint "POST /users/{id}/touch" {
  pipeline {
    sql "touch" {
      connection = connection.postgres.db
      query      = "UPDATE users SET touched = now() WHERE id = @id RETURNING *"
      args       = { id = ctx.request.path.id }
    }
    respond {
      status = 201
      schema = schema.user
      body   = steps.touch.row
    }
  }
}
`;

test('the response is a $ref to the declared schema (an array of it for list()), shared by every endpoint', () => {
  const document = documentOf(MANIFEST);
  assert.deepEqual(bodySchema(document, 'GET', '/users/{id}', '200'), { $ref: '#/components/schemas/user' });
  assert.deepEqual(bodySchema(document, 'GET', '/users', '200'), { type: 'array', items: { $ref: '#/components/schemas/user' } });
  assert.deepEqual(bodySchema(document, 'POST', '/users/{id}/touch', '201'), { $ref: '#/components/schemas/user' });
  const schemas = (document.components as Json).schemas;
  assert.deepEqual(
    Object.keys(schemas).filter((k) => k.startsWith('user')),
    ['user'],
    'one component for the three responses',
  );
  assert.deepEqual(schemas.user.required, ['id', 'email']);
  assert.deepEqual(Object.keys(schemas.user.properties), ['id', 'email', 'name']);
  assert.equal(JSON.stringify(document).includes('password_hash'), false, 'an undeclared column is not documented');
});

test('the problem() respond of the same endpoint stays a Problem', () => {
  const document = documentOf(MANIFEST);
  assert.deepEqual(bodySchema(document, 'GET', '/users/{id}', '404', 'application/problem+json'), { $ref: '#/components/schemas/Problem' });
});

test('without schema the body is still inferred from the expression', () => {
  const document = documentOf(MANIFEST.replace('      schema = list(schema.user)\n', ''));
  const inferred = bodySchema(document, 'GET', '/users', '200');
  assert.equal(inferred.type, 'array');
  assert.notDeepEqual(inferred.items, { $ref: '#/components/schemas/user' });
});

test('svc openapi: the document of a manifest with declared response schemas is valid OpenAPI 3.1 and lints without error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-openapi-respond-schema-'));
  try {
    writeFileSync(join(dir, 'main.hcl'), MANIFEST);
    const r = await svc(['openapi', '-c', dir]);
    assert.equal(r.code, 0, r.stderr);
    const document = JSON.parse(r.stdout) as Json;
    assert.deepEqual(document.paths['/users'].get.responses['200'].content['application/json'].schema, {
      type: 'array',
      items: { $ref: '#/components/schemas/user' },
    });
    assert.deepEqual(await validationErrors(document), []);
    const errors = (await lintProblems(document)).filter((p) => p.severity === 'error');
    assert.deepEqual(errors, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
