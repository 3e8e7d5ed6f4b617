/** `compression`, `etag` and `cache_control` decoded: defaults, the endpoint's switches over the server's, every diagnostic. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import { codeOf } from '../../src/diag/index.js';
import { buildServiceModel } from '../../src/steps/index.js';

function build(source: string) {
  return buildServiceModel([{ filename: 'f.hcl', source }]);
}

function diagnostics(source: string): string[] {
  return build(source).diagnostics.map((d) => `${d.subject?.start.line}:${d.subject?.start.column} ${d.severity} ${codeOf(d)}`);
}

const route = (label: string, extra = ''): string => `
route "${label}" {
  ${extra}
  respond { body = "ok" }
}`;

const ZSTD = typeof (zlib as { createZstdCompress?: unknown }).createZstdCompress === 'function';

function representationOf(source: string, path: string) {
  const r = build(source);
  assert.deepEqual(
    r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.summary),
    [],
  );
  return r.model!.endpoints.find((e) => e.path === path)!.representation;
}

test('an empty compression block: the defaults (zstd only where Node has it), for every endpoint but those that turn it off', () => {
  const source = `
server {
  compression {}
}
${route('GET /a')}
${route('GET /b', 'compression = false')}
`;
  const a = representationOf(source, '/a')!;
  assert.deepEqual(a.compression, {
    encodings: ZSTD ? ['zstd', 'br', 'gzip'] : ['br', 'gzip'],
    minSize: 1024,
    gzipLevel: 6,
    brotliQuality: 4,
    zstdLevel: 3,
  });
  assert.equal(a.etag, false);
  assert.equal(representationOf(source, '/b'), undefined);
});

test('every setting read: order of encodings, a size, levels; enabled = false turns it off', () => {
  const source = `
server {
  compression {
    encodings      = ["GZIP", "br"]
    min_size       = "2KiB"
    gzip_level     = 9
    brotli_quality = 5
    zstd_level     = 7
  }
}
${route('GET /a')}
`;
  assert.deepEqual(representationOf(source, '/a')!.compression, { encodings: ['gzip', 'br'], minSize: 2048, gzipLevel: 9, brotliQuality: 5, zstdLevel: 7 });
  assert.equal(representationOf(`server {\n  compression {\n    enabled = false\n  }\n}\n${route('GET /a')}`, '/a'), undefined);
});

test('no server block: nothing, unless the endpoint asks (compression = true takes the defaults)', () => {
  assert.equal(representationOf(route('GET /a'), '/a'), undefined);
  assert.equal(representationOf(route('GET /a', 'compression = true'), '/a')!.compression!.minSize, 1024);
});

test('etag per endpoint or server-wide; cache_control normalized', () => {
  const source = `
server {
  etag = true
}
${route('GET /a')}
${route('GET /b', 'etag = false')}
${route('GET /c', 'cache_control = "public,max-age=60 ,  stale-while-revalidate=30"')}
`;
  assert.deepEqual(representationOf(source, '/a'), { etag: true });
  assert.equal(representationOf(source, '/b'), undefined);
  assert.deepEqual(representationOf(source, '/c'), { etag: true, cacheControl: 'public, max-age=60, stale-while-revalidate=30' });
});

test('every diagnostic, with its place', () => {
  assert.deepEqual(diagnostics(`server {\n  compression {\n    encodings = ["gzip", "deflate"]\n  }\n}\n`), ['3:17 error SVC_COMPRESSION_UNKNOWN_ENCODING']);
  assert.deepEqual(diagnostics(`server {\n  compression {\n    gzip_level = 12\n  }\n}\n`).length, 1);
  assert.deepEqual(diagnostics(`server {\n  compression {\n    encodings = "gzip"\n  }\n}\n`), ['3:17 error SVC_MANIFEST_WRONG_TYPE']);
  if (!ZSTD) {
    assert.deepEqual(diagnostics(`server {\n  compression {\n    encodings = ["zstd", "gzip"]\n  }\n}\n`), [
      '3:17 warning SVC_COMPRESSION_ENCODING_UNAVAILABLE',
    ]);
  }
  assert.deepEqual(diagnostics(route('GET /a', 'cache_control = "max-age=soon"')), ['3:19 error SVC_CACHE_INVALID_CONTROL']);
  assert.deepEqual(diagnostics(route('GET /a', 'cache_control = "public;;"')), ['3:19 error SVC_CACHE_INVALID_CONTROL']);
  assert.deepEqual(diagnostics(route('GET /a', 'cache_control = "max-age"')), ['3:19 error SVC_CACHE_INVALID_CONTROL']);
  assert.deepEqual(diagnostics(route('GET /a', 'cache_control = "public, sometimes"')), ['3:19 warning SVC_CACHE_UNKNOWN_DIRECTIVE']);
  assert.deepEqual(diagnostics(route('POST /a', 'etag = true')), ['3:10 warning SVC_CACHE_ETAG_NOT_GET']);
  assert.deepEqual(diagnostics(route('GET /a', 'etag = "yes"')).length, 1);
});
