/**
 * `nullable = true` on a field and `has(map, key)` (issue 36): a PATCH tells a body field sent as
 * null (clear it) from one left out (keep it), end to end on PGlite; without `nullable` a null is a
 * 422; the OpenAPI document says `[T, "null"]`; `has` on null is false and on a list an error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileOpenApi } from '../../src/openapi/index.js';
import { buildServiceModel } from '../../src/steps/index.js';
import { newExprBudget, standardFunctions } from '../../src/expr/index.js';
import { serveManifest } from '../http/helpers.js';

const MANIFEST = `
connection "postgres" "db" {
  url = "pglite:"
}
endpoint "PATCH /people/{id}" {
  request {
    path {
      field "id" {
        type = int
      }
    }
    body {
      field "name" {
        type       = string
        min_length = 1
      }
      field "bio" {
        type     = string
        nullable = true
      }
    }
  }
  pipeline {
    sql "person" {
      connection = connection.postgres.db
      query      = <<-SQL
        WITH p (id, name, bio) AS (VALUES (1, 'ada', 'counts'))
        SELECT id,
               CASE WHEN @has_name THEN @name ELSE name END AS name,
               CASE WHEN @has_bio THEN @bio ELSE bio END AS bio
        FROM p WHERE id = @id
      SQL
      args = {
        id       = ctx.request.path.id
        has_name = has(ctx.request.body, "name")
        name     = ctx.request.body.name
        has_bio  = has(ctx.request.body, "bio")
        bio      = ctx.request.body.bio
      }
    }
    respond {
      body = steps.person.row
    }
  }
}
`;

test('PATCH: a field left out is kept, one sent as null is cleared; null where not nullable is a 422', async () => {
  const served = await serveManifest(MANIFEST);
  try {
    const patch = (body: unknown) => served.app.inject({ method: 'PATCH', url: '/people/1', payload: body as object });
    assert.deepEqual((await patch({ name: 'grace' })).json(), { id: 1, name: 'grace', bio: 'counts' });
    assert.deepEqual((await patch({ bio: null })).json(), { id: 1, name: 'ada', bio: null });
    assert.deepEqual((await patch({ bio: 'writes' })).json(), { id: 1, name: 'ada', bio: 'writes' });
    const refused = await patch({ name: null });
    assert.equal(refused.statusCode, 422);
    assert.equal(refused.json().invalid_params[0].name, 'name');
  } finally {
    await served.close();
  }
});

test('the OpenAPI document: a nullable field is [T, "null"]', () => {
  const built = buildServiceModel([{ filename: 'api.hcl', source: MANIFEST }], { dir: '.' });
  assert.deepEqual(built.diagnostics, []);
  const document = compileOpenApi(built.model!) as unknown as {
    paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: { properties: Record<string, { type: unknown }> } }> } }>>;
  };
  const properties = document.paths['/people/{id}']!.patch!.requestBody.content['application/json']!.schema.properties;
  assert.deepEqual(properties.bio!.type, ['string', 'null']);
  assert.equal(properties.name!.type, 'string');
});

test('has(map, key): present with null is true, absent is false, null is false, a list is an error', () => {
  const has = standardFunctions.get('has')!;
  const call = (...args: unknown[]) => has.impl(args, newExprBudget());
  assert.equal(call({ a: null }, 'a'), true);
  assert.equal(call({ a: 1 }, 'b'), false);
  assert.equal(call(null, 'a'), false);
  assert.throws(() => call([1], '0'));
});
