/**
 * Conditional requests (docs/conditional-requests.md): a strong ETag from the answer's bytes on
 * GET and HEAD, If-None-Match (lists, W/, `*`, a coded representation's tag) answered 304 without a
 * body but with ETag, Cache-Control and Vary; the endpoint's Cache-Control; the server-wide switch.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { codedTag, entityTag, noneMatch } from '../../src/http/conditional.js';
import { fetchRaw } from './compress-helpers.js';
import { serveManifest, type ServedService } from './helpers.js';
import { listenLocal } from './stream-helpers.js';

describe('noneMatch (RFC 9110 §13.1.2, weak comparison)', () => {
  const tag = '"abc"';
  const cases: [string | string[] | undefined, boolean][] = [
    [undefined, false],
    ['', false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"xyz", "abc"', true],
    [['"xyz"', '"abc"'], true],
    ['*', true],
    ['"abc-gzip"', true],
    ['W/"abc-br"', true],
    ['"abc-deflate"', false],
    ['"ab"', false],
    ['abc', false],
    ['"abcd"', false],
    ['garbage,,,;;', false],
  ];
  for (const [header, expected] of cases) {
    test(`${JSON.stringify(header)} -> ${expected}`, () => assert.equal(noneMatch(header, tag), expected));
  }
  test('a file served as it is matches only its own tag', () => assert.equal(noneMatch('"abc-gzip"', tag, false), false));
  test('the coded tag is the identity tag with the coding inside the quotes', () => assert.equal(codedTag('"abc"', 'br'), '"abc-br"'));
});

function upTo(n: number): string {
  return JSON.stringify(Array.from({ length: n }, (_, i) => i));
}

const MANIFEST = `
server {
  compression {
    encodings = ["gzip", "br"]
  }
}
route "GET /items" {
  etag          = true
  cache_control = "public, max-age=60"
  respond {
    body = { items = [for i in ${upTo(200)} : { i = i }] }
  }
}
route "GET /small" {
  etag = true
  request {
    query {
      field "v" {
        type = string
      }
    }
  }
  respond {
    body = { ok = true, echo = ctx.request.query.v }
  }
}
route "GET /own-cache" {
  etag          = true
  cache_control = "no-store"
  respond {
    headers = { "Cache-Control" = "private, max-age=5" }
    body    = { ok = true }
  }
}
route "GET /missing" {
  etag          = true
  cache_control = "public, max-age=60"
  respond {
    status = 404
    body   = problem(404, "nothing")
  }
}
route "GET /export" {
  cache_control = "private, max-age=30"
  stream "ndjson" {
    source = [{ i = 1 }, { i = 2 }]
  }
}
route "GET /feed" {
  cache_control = "public, max-age=30"
  stream "sse" {
    source = [{ i = 1 }]
  }
}
route "POST /items" {
  respond {
    body = { ok = true }
  }
}
route "GET /plain" {
  respond {
    body = { ok = true }
  }
}
`;

describe('conditional requests over HTTP', () => {
  let s: ServedService;
  let url: string;
  before(async () => {
    s = await serveManifest(MANIFEST);
    url = await listenLocal(s.app);
  });
  after(() => s.close());

  test('a strong ETag from the exact bytes, with the endpoint Cache-Control', async () => {
    const got = await fetchRaw(`${url}/items`);
    assert.equal(got.status, 200);
    const expected = `"${createHash('sha1').update(got.raw).digest('base64url')}"`;
    assert.equal(got.headers.etag, expected);
    assert.equal(entityTag(got.raw), expected);
    assert.equal(got.headers['cache-control'], 'public, max-age=60');
  });

  test('If-None-Match with the tag: 304, no body, with ETag, Cache-Control, Vary and the request id', async () => {
    const first = await fetchRaw(`${url}/items`);
    const tag = first.headers.etag!;
    for (const header of [tag, `W/${tag}`, `"nope", ${tag}`, '*']) {
      const got = await fetchRaw(`${url}/items`, { 'if-none-match': header });
      assert.equal(got.status, 304, header);
      assert.equal(got.raw.length, 0);
      assert.equal(got.headers.etag, tag);
      assert.equal(got.headers['cache-control'], 'public, max-age=60');
      assert.equal(got.headers.vary, 'Accept-Encoding');
      assert.equal(got.headers['content-length'], undefined);
      assert.ok(typeof got.headers['x-request-id'] === 'string');
    }
    const other = await fetchRaw(`${url}/items`, { 'if-none-match': '"something-else"' });
    assert.equal(other.status, 200);
    assert.ok(other.text === first.text);
  });

  test('a compressed answer has its own tag; either tag revalidates, the 304 carries the one that would be sent', async () => {
    const plain = await fetchRaw(`${url}/items`);
    const gzip = await fetchRaw(`${url}/items`, { 'accept-encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gzip.headers.etag, codedTag(plain.headers.etag!, 'gzip'));
    const brWithGzipTag = await fetchRaw(`${url}/items`, { 'accept-encoding': 'br', 'if-none-match': gzip.headers.etag! });
    assert.equal(brWithGzipTag.status, 304);
    assert.equal(brWithGzipTag.headers.etag, codedTag(plain.headers.etag!, 'br'));
    const identityWithGzipTag = await fetchRaw(`${url}/items`, { 'if-none-match': gzip.headers.etag! });
    assert.equal(identityWithGzipTag.status, 304);
    assert.equal(identityWithGzipTag.headers.etag, plain.headers.etag);
  });

  test('HEAD: the headers of GET, and 304 too', async () => {
    const get = await fetchRaw(`${url}/items`);
    const head = await fetchRaw(`${url}/items`, {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers.etag, get.headers.etag);
    assert.equal(head.headers['content-length'], get.headers['content-length']);
    const notModified = await fetchRaw(`${url}/items`, { 'if-none-match': get.headers.etag! }, 'HEAD');
    assert.equal(notModified.status, 304);
  });

  test('the tag follows the content: another answer, another tag', async () => {
    const a = await fetchRaw(`${url}/small?v=a`);
    const b = await fetchRaw(`${url}/small?v=b`);
    assert.notEqual(a.headers.etag, b.headers.etag);
    assert.equal((await fetchRaw(`${url}/small?v=b`, { 'if-none-match': a.headers.etag! })).status, 200);
    assert.equal((await fetchRaw(`${url}/small?v=a`, { 'if-none-match': a.headers.etag! })).status, 304);
  });

  test("a pipeline's own Cache-Control wins over the endpoint's", async () => {
    const got = await fetchRaw(`${url}/own-cache`);
    assert.equal(got.headers['cache-control'], 'private, max-age=5');
  });

  test('problems get neither ETag nor Cache-Control, and If-None-Match does not turn them into 304', async () => {
    const got = await fetchRaw(`${url}/missing`, { 'if-none-match': '*' });
    assert.equal(got.status, 404);
    assert.equal(got.headers.etag, undefined);
    assert.equal(got.headers['cache-control'], undefined);
  });

  test("streams carry the endpoint's Cache-Control, SSE keeps its format's no-cache", async () => {
    const lines = await fetchRaw(`${url}/export`);
    assert.equal(lines.headers['cache-control'], 'private, max-age=30');
    assert.equal(lines.text, '{"i":1}\n{"i":2}\n');
    const head = await fetchRaw(`${url}/export`, {}, 'HEAD');
    assert.equal(head.headers['cache-control'], 'private, max-age=30');
    const feed = await fetchRaw(`${url}/feed`);
    assert.equal(feed.headers['cache-control'], 'no-cache');
  });

  test('endpoints that ask for nothing: no ETag, If-None-Match ignored', async () => {
    const plain = await fetchRaw(`${url}/plain`, { 'if-none-match': '*' });
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.etag, undefined);
  });
});

describe('server { etag = true }', () => {
  let s: ServedService;
  let url: string;
  before(async () => {
    s = await serveManifest(`
server {
  etag = true
}
route "GET /a" {
  respond {
    body = { a = 1 }
  }
}
route "GET /b" {
  etag = false
  respond {
    body = { b = 1 }
  }
}
route "POST /c" {
  respond {
    body = { c = 1 }
  }
}
`);
    url = await listenLocal(s.app);
  });
  after(() => s.close());

  test('every GET gets a tag unless it says etag = false; other methods never', async () => {
    const a = await fetchRaw(`${url}/a`);
    assert.match(a.headers.etag!, /^"[A-Za-z0-9_-]{27}"$/);
    assert.equal((await fetchRaw(`${url}/a`, { 'if-none-match': a.headers.etag! })).status, 304);
    assert.equal((await fetchRaw(`${url}/b`)).headers.etag, undefined);
    const c = await fetchRaw(`${url}/c`, { 'if-none-match': '*' }, 'POST');
    assert.equal(c.status, 200);
    assert.equal(c.headers.etag, undefined);
  });
});
