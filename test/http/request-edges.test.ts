/**
 * Issue 15, class 7: the small ones. The fixtures (fixtures/small-ones, framing-header, long-pattern)
 * hold the reproductions: before, a request without Host got Node's bare 400 (no body), TRACE on an
 * existing path a 404, a header name from the query sent `Transfer-Encoding: chunked` beside the
 * server's Content-Length, `1e400` in an `any` field became null, and a diagnostic on a megabyte-long
 * line printed the line and a megabyte of markers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderDiagnostic } from '../../src/diag/index.js';
import { svc } from '../cli/helpers.js';
import { serveManifest, type ServedService } from './helpers.js';
import { sourceDir } from '../paths.js';

const FIXTURES = join(sourceDir(import.meta.url), 'fixtures');

async function serve(t: { after: (f: () => Promise<void>) => void }): Promise<ServedService> {
  const service = await serveManifest(readFileSync(join(FIXTURES, 'small-ones', 'api.hcl'), 'utf8'));
  t.after(() => service.close());
  return service;
}

/** One raw HTTP exchange: what the server sent until it closed the connection (or 2 s passed). */
async function raw(service: ServedService, request: string): Promise<string> {
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = service.app.server.address() as { port: number };
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const done = setTimeout(() => socket.destroy(), 2000);
    socket.on('data', (d) => (received += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(done);
      resolve(received);
    });
  });
}

const bodyOf = (response: string): Record<string, unknown> => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;

test('an HTTP/1.1 request without Host is a 400 problem, logged, and the connection closed', async (t) => {
  const service = await serve(t);
  const response = await raw(service, 'GET /items HTTP/1.1\r\nX-Request-Id: no-host-1\r\n\r\n');
  assert.match(response, /^HTTP\/1\.1 400 Bad Request\r\n/);
  assert.match(response, /\r\ncontent-type: application\/problem\+json\r\n/i);
  assert.match(response, /\r\nx-request-id: no-host-1\r\n/i);
  assert.match(response, /\r\nconnection: close\r\n/i);
  assert.deepEqual(bodyOf(response), {
    type: 'urn:svc:error:bad-request',
    title: 'Bad Request',
    status: 400,
    detail: 'an HTTP/1.1 request must have a Host header',
    instance: '/items',
  });
  const line = service.log.requests().at(-1)!;
  assert.deepEqual([line.reqId, line.method, line.url, line.status], ['no-host-1', 'GET', '/items', 400]);
});

test('an HTTP/1.0 request needs no Host and is served', async (t) => {
  const service = await serve(t);
  const response = await raw(service, 'GET /items HTTP/1.0\r\n\r\n');
  assert.match(response, /^HTTP\/1\.1 200 OK\r\n/);
  assert.deepEqual(bodyOf(response), { items: [] });
});

test('TRACE on an existing path is a 405 with Allow; on an unknown path a 404', async (t) => {
  const service = await serve(t);
  const r = await service.app.inject({ method: 'TRACE', url: '/items' });
  assert.equal(r.statusCode, 405);
  assert.equal(r.headers.allow, 'GET, HEAD, POST');
  assert.equal((r.json() as { status: number }).status, 405);
  const unknown = await service.app.inject({ method: 'TRACE', url: '/nowhere' });
  assert.equal(unknown.statusCode, 404);
});

test('a header name from request data cannot frame the message: the step fails, nothing is sent beside Content-Length', async (t) => {
  const service = await serve(t);
  for (const name of ['Transfer-Encoding', 'content-length', 'Connection', 'Upgrade', 'TE', 'Trailer', 'Keep-Alive']) {
    const r = await service.app.inject({ method: 'GET', url: `/tagged?name=${name}&value=chunked` });
    assert.equal(r.statusCode, 500, name);
    assert.equal((r.json() as { step?: string }).step, 'respond#1');
    assert.equal(r.headers['transfer-encoding'], undefined);
    const line = service.log.requests().at(-1)!;
    assert.match(String((line.err as { message?: string }).message), /frames the message or manages the connection/);
  }
  const ok = await service.app.inject({ method: 'GET', url: '/tagged?name=X-Tag&value=a' });
  assert.equal(ok.statusCode, 200);
  assert.equal(ok.headers['x-tag'], 'a');
});

test('a framing header written as a constant is a boot error at its line', async () => {
  const dir = join(FIXTURES, 'framing-header');
  const ran = await svc(['check', '-c', dir]);
  assert.equal(ran.code, 1);
  assert.match(ran.stderr, /Error: Invalid respond step\n\n {2}on .*api\.hcl line 5/);
  assert.match(ran.stderr, /header "Transfer-Encoding" frames the message or manages the connection/);
});

test('a number beyond the double range in a body is a 400 with the reason, never null', async (t) => {
  const service = await serve(t);
  for (const payload of [
    '{"price": 1, "extra": [1e400]}',
    '{"price": 1e400}',
    `{"price": 1, "extra": ${'9'.repeat(400)}}`,
    '{"price": 1, "extra": {"a": -1e999}}',
  ]) {
    const r = await service.app.inject({ method: 'POST', url: '/items', headers: { 'content-type': 'application/json' }, payload });
    assert.equal(r.statusCode, 400, payload);
    assert.deepEqual(r.json(), {
      type: 'urn:svc:error:bad-request',
      title: 'Invalid Request Payload',
      status: 400,
      detail: 'invalid JSON payload: a number is out of range (beyond ±1.7976931348623157e+308)',
      instance: '/items',
    });
  }
  // A number too small for a double is 0, as JSON parsers agree; only the unrepresentable is refused.
  const fine = await service.app.inject({
    method: 'POST',
    url: '/items',
    headers: { 'content-type': 'application/json' },
    payload: '{"price": 1.5e300, "extra": [1e-400]}',
  });
  assert.equal(fine.statusCode, 201);
  assert.deepEqual(fine.json(), { price: 1.5e300, extra: [0] });
});

test('a diagnostic on a megabyte-long line is rendered in a few lines; --diagnostics=json keeps it whole', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-long-pattern-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const long = 'a'.repeat(1_000_000);
  writeFileSync(join(dir, 'api.hcl'), readFileSync(join(FIXTURES, 'long-pattern', 'api.hcl'), 'utf8').replace('(?=x)LONG_TEXT', `(?=x)${long}`));
  const ran = await svc(['check', '-c', dir]);
  assert.equal(ran.code, 1);
  assert.ok(ran.stderr.length < 2000, `rendered ${ran.stderr.length} characters`);
  const lines = ran.stderr.split('\n');
  const snippet = lines.findIndex((l) => l.startsWith('  10: '));
  assert.ok(snippet > 0, ran.stderr);
  assert.match(lines[snippet]!, /^ {2}10: {9}pattern = "\(\?=x\)a+…$/);
  assert.match(lines[snippet + 1]!, /^ +\^+$/);
  // The JSON form is for tools and keeps everything.
  const json = await svc(['check', '-c', dir, '--diagnostics=json']);
  const [d] = (JSON.parse(json.stdout) as { diagnostics: { range: { end: { column: number } } }[] }).diagnostics;
  assert.ok(d!.range.end.column > 1_000_000);
});

test('a megabyte-long detail, summary or block path is cut in rendering, saying how much was left out', () => {
  const long = 'x'.repeat(1_000_000);
  const text = renderDiagnostic(
    { severity: 'error', summary: `Invalid ${long}`, detail: `Pattern /${long}/ is invalid.`, path: [`endpoint "GET /${long}"`] },
    new Map(),
  );
  assert.ok(text.length < 3000, `rendered ${text.length} characters`);
  assert.match(text, /^Error: Invalid x+… \(999,708 more characters\)\n/);
  assert.match(text, /\n {2}in endpoint "GET \/x+… \(999,716 more characters\)\n/);
  assert.match(text, /\nPattern \/x+… \(998,022 more characters\)\n$/);
  // Short ones are untouched, and a cut never splits a surrogate pair.
  assert.equal(renderDiagnostic({ severity: 'warning', summary: 'Short', detail: 'As is.' }, new Map()), 'Warning: Short\n\nAs is.\n');
  const emoji = renderDiagnostic({ severity: 'error', summary: `${'a'.repeat(299)}😀😀` }, new Map());
  assert.match(emoji, /^Error: a{299}… \(4 more characters\)\n$/);
});
