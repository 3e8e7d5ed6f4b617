/**
 * `respond { schema = schema.<name> | list(schema.<name>) }` (issue 36): the body is sent with only
 * the declared fields, nested objects and lists of objects included; a declared required field the
 * body lacks fails the step (a 500 naming it); a problem() body and no body pass as they are; the
 * mistakes of the attribute are boot diagnostics at its place. The document's side is in
 * test/openapi/respond-schema.test.ts; a served answer on PostgreSQL in test/e2e/respond-schema.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from '../../src/diag/index.js';
import { buildServiceModel, compileService, type CompiledEndpoint, type EndpointResult } from '../../src/steps/index.js';
import { ctx, statusOf } from './helpers.js';

const SCHEMAS = `
schema "address" {
  field "city" {
    type     = string
    required = true
  }
}
schema "anything" {
  field "x" {
    type = any
  }
}
schema "user" {
  field "id" {
    type     = int
    required = true
  }
  field "email" {
    type     = string
    required = true
  }
  field "home" {
    type = schema.address
  }
  field "history" {
    type = list(schema.address)
  }
}
`;

function built(pipeline: string) {
  // The body is declared so that ctx.request.body may be read; run() hands the step any value.
  const source = `${SCHEMAS}\nendpoint "POST /t" {\n  request {\n    body = schema.anything\n  }\n  pipeline {\n${pipeline}\n  }\n}\n`;
  return { source, ...buildServiceModel([{ filename: 'api.hcl', source }]) };
}

function endpointOf(pipeline: string): CompiledEndpoint {
  const { model, diagnostics } = built(pipeline);
  assert.deepEqual(diagnostics, []);
  const compiled = compileService(model!);
  assert.deepEqual(compiled.diagnostics, []);
  return compiled.endpoints[0]!;
}

function run(endpoint: CompiledEndpoint, body: unknown): EndpointResult {
  const out = endpoint.run(ctx({ method: 'POST', body }));
  assert.notEqual(out.kind, 'pending');
  return out as EndpointResult;
}

function bootErrors(pipeline: string): Diagnostic[] {
  const { model, diagnostics } = built(pipeline);
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0 || !model) return errors;
  return compileService(model).diagnostics.filter((d) => d.severity === 'error');
}

const ROW = {
  id: 7,
  password_hash: '$argon2id$v=19$secret',
  email: 'ada@example.com',
  home: { city: 'London', door_code: '1234' },
  history: [{ city: 'Paris', note: 'n' }, { city: 'Lyon' }],
};

test('only the declared fields are sent, through nested objects and lists of objects, in declaration order', () => {
  const endpoint = endpointOf('    respond {\n      schema = schema.user\n      body   = ctx.request.body\n    }');
  const out = run(endpoint, ROW);
  assert.equal(out.kind, 'response');
  if (out.kind !== 'response') return;
  const sent = { id: 7, email: 'ada@example.com', home: { city: 'London' }, history: [{ city: 'Paris' }, { city: 'Lyon' }] };
  assert.deepEqual(out.body, sent);
  assert.equal(out.json, JSON.stringify(sent), 'the JSON written is the masked body');
  assert.doesNotMatch(out.json!, /password_hash|argon2|door_code|note/);
  assert.equal(ROW.password_hash, '$argon2id$v=19$secret', 'the step output is not modified');
});

test('null is sent as null (a nested object or the whole body); an absent optional field stays absent', () => {
  const endpoint = endpointOf('    respond {\n      schema = schema.user\n      body   = ctx.request.body\n    }');
  const partial = run(endpoint, { id: 1, email: 'a@b.c', home: null, extra: 1 });
  assert.deepEqual(partial.kind === 'response' && partial.body, { id: 1, email: 'a@b.c', home: null });
  const none = run(endpoint, null);
  assert.equal(none.kind, 'response');
  assert.equal(none.kind === 'response' && none.body, null);
});

test('list(schema.user): every element masked; an empty list stays empty', () => {
  const endpoint = endpointOf('    respond {\n      schema = list(schema.user)\n      body   = ctx.request.body\n    }');
  const out = run(endpoint, [ROW, { id: 8, email: 'b@example.com', password_hash: 'h' }]);
  assert.deepEqual(out.kind === 'response' && out.body, [
    { id: 7, email: 'ada@example.com', home: { city: 'London' }, history: [{ city: 'Paris' }, { city: 'Lyon' }] },
    { id: 8, email: 'b@example.com' },
  ]);
  const empty = run(endpoint, []);
  assert.deepEqual(empty.kind === 'response' && empty.body, []);
});

test('a declared required field missing from the body is a 500 naming the step; the log has the field and where', () => {
  const endpoint = endpointOf('    respond {\n      schema = list(schema.user)\n      body   = ctx.request.body\n    }');
  const out = run(endpoint, [ROW, { id: 8, email: 'b@example.com', history: [{ city: 'Nice' }, { zip: '06000' }] }]);
  assert.equal(out.kind, 'failure');
  if (out.kind !== 'failure') return;
  assert.equal(statusOf(out), 500);
  assert.equal(out.step, 'respond#1');
  const message = (out.error as Error).message;
  assert.match(message, /required field "city" of schema address is missing/);
  assert.match(message, /\[1\]\.history\[1\]\.city/);
});

test('a problem() body is sent as it is, not masked by the declared schema', () => {
  const endpoint = endpointOf(
    '    respond {\n      schema = schema.user\n      body   = ctx.request.body == null ? problem(404, "No such user") : ctx.request.body\n    }',
  );
  const out = run(endpoint, null);
  assert.equal(out.kind, 'response');
  if (out.kind !== 'response') return;
  assert.equal(out.status, 404);
  assert.equal(out.problem, true);
  assert.deepEqual({ ...(out.body as object) }, { type: 'urn:svc:error:not-found', title: 'No such user', status: 404 });
});

test('a constant body is masked once at boot; one that lacks a required field is a boot error', () => {
  const endpoint = endpointOf('    respond {\n      schema = schema.user\n      body   = { id = 1, email = "a@b.c", token = "t" }\n    }');
  const first = run(endpoint, undefined);
  assert.equal(first, run(endpoint, undefined), 'the same result object serves every request');
  assert.equal(first.kind === 'response' && first.json, '{"id":1,"email":"a@b.c"}');

  const errors = bootErrors('    respond {\n      schema = schema.user\n      body   = { id = 1, token = "t" }\n    }');
  assert.deepEqual(
    errors.map((d) => d.summary),
    ['Invalid respond step'],
  );
  assert.match(errors[0]!.detail ?? '', /required field "email" of schema user is missing/);
});

test('a schema that does not exist: its place, and a did-you-mean', () => {
  const pipeline = '    respond {\n      schema = list(schema.usr)\n      body   = ctx.request.body\n    }';
  const errors = bootErrors(pipeline);
  assert.equal(errors.length, 1, errors.map((d) => d.summary).join('; '));
  const [d] = errors;
  assert.equal(d!.summary, 'Reference to undeclared schema');
  assert.equal(d!.suggestion, 'schema.user');
  const { source } = built(pipeline);
  assert.equal(d!.subject?.start.line, source.split('\n').findIndex((l) => l.includes('schema.usr')) + 1);
});

test('a schema that is not a named schema or a list of one, or on a respond without body, is refused', () => {
  for (const type of ['string', 'map(schema.user)', 'list(list(schema.user))', 'list(string)']) {
    const errors = bootErrors(`    respond {\n      schema = ${type}\n      body   = ctx.request.body\n    }`);
    assert.deepEqual(
      errors.map((d) => d.summary),
      ['Invalid respond schema'],
      type,
    );
    assert.match(errors[0]!.detail ?? '', /schema\.<name>/);
  }
  const noBody = bootErrors('    respond {\n      status = 204\n      schema = schema.user\n    }');
  assert.deepEqual(
    noBody.map((d) => d.summary),
    ['Invalid respond schema'],
  );
  assert.match(noBody[0]!.detail ?? '', /sends no body/);
});
