import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestSpec } from '../../src/schema/field.js';
import { endpoint, json, server } from './helpers.js';

const JSON_BODY: RequestSpec = {
  path: [],
  query: [],
  headers: [],
  body: { kind: 'object', fields: [{ name: 'name', type: { kind: 'string' }, required: false, hasDefault: false }] },
};

function recorder() {
  const runs: unknown[] = [];
  const ep = (label: string, request?: RequestSpec) =>
    endpoint(
      label,
      (ctx) => {
        runs.push(ctx.request.body);
        return json({ body: ctx.request.body ?? null });
      },
      request,
    );
  return { runs, ep };
}

test('a declared JSON body is decoded and reaches ctx.request.body', async () => {
  const { ep } = recorder();
  const { app } = await server([ep('POST /x', JSON_BODY)]);
  const r = await app.inject({ method: 'POST', url: '/x', payload: { name: 'n' } });
  assert.equal(r.statusCode, 200);
  assert.deepEqual(r.json(), { body: { name: 'n' } });
  const charset = await app.inject({ method: 'POST', url: '/x', headers: { 'content-type': 'application/json; charset=utf-8' }, payload: '{"name":"c"}' });
  assert.deepEqual(charset.json(), { body: { name: 'c' } });
});

test('malformed JSON is the 400 of SPEC.md §7 and no step runs', async () => {
  const { runs, ep } = recorder();
  const { app } = await server([ep('POST /x', JSON_BODY)]);
  const r = await app.inject({ method: 'POST', url: '/x', headers: { 'content-type': 'application/json' }, payload: '{"name": ' });
  assert.equal(r.statusCode, 400);
  assert.match(r.headers['content-type'] as string, /^application\/problem\+json/);
  const body = r.json();
  assert.equal(body.type, 'urn:svc:error:bad-request');
  assert.equal(body.title, 'Invalid Request Payload');
  assert.match(body.detail, /^invalid JSON payload: /);
  assert.equal(body.instance, '/x');
  assert.equal(runs.length, 0);
});

test('a non-JSON content type sent to a JSON endpoint is a 415 problem', async () => {
  const { runs, ep } = recorder();
  const { app } = await server([ep('POST /x', JSON_BODY)]);
  const r = await app.inject({ method: 'POST', url: '/x', headers: { 'content-type': 'text/plain' }, payload: 'hello' });
  assert.equal(r.statusCode, 415);
  assert.equal(r.json().type, 'urn:svc:error:unsupported-media-type');
  assert.equal(r.json().title, 'Unsupported Media Type');
  assert.equal(runs.length, 0);
  // The whole body, member order included, as the wire carries it.
  assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.equal(
    r.body,
    '{"type":"urn:svc:error:unsupported-media-type","title":"Unsupported Media Type","status":415,' +
      '"detail":"a JSON body is expected, not text/plain","instance":"/x"}',
  );
});

test('a body larger than max_body_size is a 413 problem', async () => {
  const { runs, ep } = recorder();
  const { app } = await server([ep('POST /x', JSON_BODY)], { bodyLimit: 64 });
  const r = await app.inject({ method: 'POST', url: '/x', payload: { name: 'x'.repeat(200) } });
  assert.equal(r.statusCode, 413);
  assert.match(r.headers['content-type'] as string, /^application\/problem\+json/);
  assert.equal(r.json().type, 'urn:svc:error:payload-too-large');
  assert.equal(r.json().title, 'Payload Too Large');
  assert.equal(r.json().instance, '/x');
  assert.equal(runs.length, 0);
});

test('without a declared body, JSON is still decoded and other media types pass as text', async () => {
  const { ep } = recorder();
  const { app } = await server([ep('POST /free')]);
  const r1 = await app.inject({ method: 'POST', url: '/free', payload: { a: 1 } });
  assert.deepEqual(r1.json(), { body: { a: 1 } });
  const r2 = await app.inject({ method: 'POST', url: '/free', headers: { 'content-type': 'text/plain' }, payload: 'hi' });
  assert.deepEqual(r2.json(), { body: 'hi' });
  const r3 = await app.inject({ method: 'POST', url: '/free', headers: { 'content-type': 'application/json' }, payload: '{' });
  assert.equal(r3.statusCode, 400);
});

// Bytes no UTF-8 decoder may accept: a lead byte without its continuation, an overlong encoding of
// '/', a surrogate encoded on its own (CESU-8), a byte that never occurs in UTF-8.
const NOT_UTF8: Record<string, number[]> = {
  'a lead byte without its continuation': [0xc3, 0x28],
  'an overlong encoding': [0xc0, 0xaf],
  'a lone surrogate (CESU-8)': [0xed, 0xa0, 0x80],
  'a byte UTF-8 never uses': [0xff],
};

function jsonWith(bytes: number[]): Buffer {
  return Buffer.concat([Buffer.from('{"name":"a'), Buffer.from(bytes), Buffer.from('b"}')]);
}

for (const [what, bytes] of Object.entries(NOT_UTF8)) {
  test(`a JSON body holding ${what} is a 400, not text with U+FFFD`, async () => {
    const { runs, ep } = recorder();
    const { app } = await server([ep('POST /x', JSON_BODY), ep('POST /free')]);
    for (const url of ['/x', '/free']) {
      const r = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: jsonWith(bytes) });
      assert.equal(r.statusCode, 400, url);
      assert.match(r.headers['content-type'] as string, /^application\/problem\+json/);
      const body = r.json();
      assert.equal(body.type, 'urn:svc:error:bad-request');
      assert.equal(body.title, 'Invalid Request Payload');
      assert.equal(body.detail, 'invalid JSON payload: the body is not valid UTF-8');
      assert.equal(body.instance, url);
    }
    assert.equal(runs.length, 0);
  });
}

test('a text body that is not UTF-8 is a 400 whatever its declared charset; one sent to a JSON endpoint keeps its 415', async () => {
  const { runs, ep } = recorder();
  const { app } = await server([ep('POST /x', JSON_BODY), ep('POST /free')]);
  for (const contentType of ['text/plain', 'text/plain; charset=utf-8', 'text/plain; charset=iso-8859-1', 'application/octet-stream']) {
    const r = await app.inject({ method: 'POST', url: '/free', headers: { 'content-type': contentType }, payload: Buffer.from([0x63, 0x61, 0x66, 0xe9]) });
    assert.equal(r.statusCode, 400, contentType);
    assert.equal(r.json().type, 'urn:svc:error:bad-request');
    assert.equal(r.json().detail, 'the body is not valid UTF-8');
  }
  const r = await app.inject({ method: 'POST', url: '/x', headers: { 'content-type': 'text/plain' }, payload: Buffer.from([0xc3, 0x28]) });
  assert.equal(r.statusCode, 415);
  assert.equal(runs.length, 0);
});

test('valid UTF-8 passes unchanged, a U+FFFD the client sent included', async () => {
  const { ep } = recorder();
  const { app } = await server([ep('POST /x', JSON_BODY), ep('POST /free')]);
  const name = 'é \uFFFD 😀 \u{10FFFF}';
  const r1 = await app.inject({ method: 'POST', url: '/x', headers: { 'content-type': 'application/json' }, payload: Buffer.from(JSON.stringify({ name })) });
  assert.equal(r1.statusCode, 200);
  assert.deepEqual(r1.json(), { body: { name } });
  const r2 = await app.inject({ method: 'POST', url: '/free', headers: { 'content-type': 'text/plain' }, payload: Buffer.from(name) });
  assert.deepEqual(r2.json(), { body: name });
});
