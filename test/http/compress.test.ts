/**
 * Compression of answers over real sockets (docs/compression.md): the coding chosen from
 * Accept-Encoding (q-values, `*`, identity, garbage), bodies and streams decoded byte for byte,
 * Vary, HEAD, the threshold, the endpoint's off switch, never twice, SSE never, and a compressed
 * ndjson stream that delivers its first line while its source is still waiting.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import * as zlib from 'node:zlib';
import { chooseEncoding } from '../../src/http/compress-negotiate.js';
import { codedTag } from '../../src/http/conditional.js';
import { buildServer, createLogger, docsSites } from '../../src/http/index.js';
import type { ContentCoding, RepresentationModel } from '../../src/model/index.js';
import { buildServiceModel, compileService } from '../../src/steps/index.js';
import { CODINGS, fetchRaw } from './compress-helpers.js';
import { endpoint, LogCapture, serveManifest, type ServedService } from './helpers.js';
import { listenLocal, open, streamResult, until } from './stream-helpers.js';

describe('chooseEncoding (RFC 9110 §12.5.3)', () => {
  const offered = ['br', 'gzip'] as const;
  const cases: [string | undefined, string | undefined][] = [
    [undefined, undefined],
    ['', undefined],
    ['gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['*;q=0', undefined],
    ['identity', undefined],
    ['identity;q=0', undefined],
    ['gzip;q=0.5, identity', undefined],
    ['gzip, identity;q=0.5', 'gzip'],
    ['deflate, compress', undefined],
    ['gzip;q=2', undefined],
    ['gzip;q=abc, br', 'br'],
    ['gzip;q=0.001', 'gzip'],
    [';;;,,, =;q', undefined],
    ['\u0000\u00ff garbage', undefined],
    ['gzip;level=9', 'gzip'],
    [`${'x,'.repeat(5000)}gzip`, undefined],
  ];
  for (const [header, expected] of cases) {
    test(`${JSON.stringify(header?.slice(0, 40))} -> ${expected ?? 'identity'}`, () => {
      assert.equal(chooseEncoding(header, offered), expected);
    });
  }
});

/** `[0, 1, ..., n-1]` as an HCL list (the expression language has no range function). */
function upTo(n: number): string {
  return JSON.stringify(Array.from({ length: n }, (_, i) => i));
}

const MANIFEST = `
server {
  compression {
    encodings = ["br", "gzip", "zstd"]
    min_size  = "1KiB"
  }
}
route "GET /big" {
  respond {
    body = { items = [for i in ${upTo(300)} : { i = i, label = "item number \${i}" }] }
  }
}
route "GET /small" {
  respond {
    body = { ok = true }
  }
}
route "GET /text" {
  respond {
    headers = { "Content-Type" = "text/plain; charset=utf-8" }
    body    = join("\\n", [for i in ${upTo(300)} : "line \${i}"])
  }
}
route "GET /coded" {
  respond {
    headers = { "Content-Type" = "text/plain", "Content-Encoding" = "gzip" }
    body    = join("", [for i in ${upTo(300)} : "already coded "])
  }
}
route "GET /off" {
  compression = false
  respond {
    body = { items = [for i in ${upTo(300)} : { i = i }] }
  }
}
route "GET /lines" {
  stream "ndjson" {
    source = [for i in ${upTo(2000)} : { i = i }]
  }
}
route "GET /rows.csv" {
  stream "csv" {
    source  = [for i in ${upTo(2000)} : { i = i, label = "n, \${i}" }]
    columns = ["i", "label"]
  }
}
route "GET /feed" {
  stream "sse" {
    source = [for i in ${upTo(50)} : { i = i }]
  }
}
route "GET /problem" {
  respond {
    status = 404
    body   = problem(404, "nothing here \${join("", [for i in ${upTo(200)} : "x"])}")
  }
}
`;

describe('compression over HTTP', () => {
  let s: ServedService;
  let url: string;
  before(async () => {
    s = await serveManifest(MANIFEST);
    url = await listenLocal(s.app);
  });
  after(() => s.close());

  test('a JSON answer over the threshold in each coding, decoded byte for byte, with Vary and its own length', async () => {
    const plain = await fetchRaw(`${url}/big`);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    for (const coding of CODINGS) {
      const got = await fetchRaw(`${url}/big`, { 'accept-encoding': coding });
      assert.equal(got.status, 200);
      assert.equal(got.headers['content-encoding'], coding);
      assert.equal(got.headers.vary, 'Accept-Encoding');
      assert.equal(got.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(Number(got.headers['content-length']), got.raw.length);
      assert.ok(got.raw.length < plain.raw.length / 3, `${coding}: ${got.raw.length} of ${plain.raw.length} bytes`);
      assert.ok(got.text === plain.text, `${coding}: the same bytes once decoded`);
      assert.ok(typeof got.headers['x-request-id'] === 'string');
    }
  });

  test("the client's weights decide, the server's order breaks ties", async () => {
    assert.equal((await fetchRaw(`${url}/big`, { 'accept-encoding': 'gzip, deflate, br' })).headers['content-encoding'], 'br');
    assert.equal((await fetchRaw(`${url}/big`, { 'accept-encoding': 'gzip;q=1, br;q=0.9' })).headers['content-encoding'], 'gzip');
    assert.equal((await fetchRaw(`${url}/big`, { 'accept-encoding': 'br;q=0, *' })).headers['content-encoding'], 'gzip');
  });

  test('garbage, refusals of everything, unknown codings: the answer as it is, never an error', async () => {
    const plain = await fetchRaw(`${url}/big`);
    for (const header of ['%%%;;;q=', 'gzip;q=0, br;q=0, identity;q=0', '*;q=0', 'deflate', 'x'.repeat(8000), 'gzip;q=7']) {
      const got = await fetchRaw(`${url}/big`, { 'accept-encoding': header });
      assert.equal(got.status, 200, header.slice(0, 20));
      assert.equal(got.headers['content-encoding'], undefined, header.slice(0, 20));
      assert.ok(got.text === plain.text);
    }
  });

  test('below the threshold: sent as it is, still with Vary', async () => {
    const got = await fetchRaw(`${url}/small`, { 'accept-encoding': 'gzip' });
    assert.equal(got.headers['content-encoding'], undefined);
    assert.equal(got.headers.vary, 'Accept-Encoding');
    assert.equal(got.text, '{"ok":true}');
  });

  test('text with a declared media type is compressed too', async () => {
    const got = await fetchRaw(`${url}/text`, { 'accept-encoding': 'gzip' });
    assert.equal(got.headers['content-encoding'], 'gzip');
    assert.equal(got.headers['content-type'], 'text/plain; charset=utf-8');
    assert.ok(got.text.startsWith('line 0\nline 1\n'));
  });

  test('never twice: a body the pipeline says is coded goes as it is', async () => {
    const got = await fetchRaw(`${url}/coded`, { 'accept-encoding': 'identity' }).catch((error: Error) => error);
    // The body is not gzip (the pipeline lied), so decoding it fails: svc did not touch it.
    assert.ok(got instanceof Error);
    const raw = await new Promise<Buffer>((resolve, reject) => {
      void open(`${url}/coded`, { 'accept-encoding': 'gzip, br' }).then((res) => {
        assert.equal(res.headers['content-encoding'], 'gzip');
        assert.equal(res.headers.vary, undefined);
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
        res.on('error', reject);
      }, reject);
    });
    assert.equal(raw.toString('utf8'), 'already coded '.repeat(300));
  });

  test('compression = false on the endpoint: never compressed, no Vary', async () => {
    const got = await fetchRaw(`${url}/off`, { 'accept-encoding': 'gzip, br' });
    assert.equal(got.headers['content-encoding'], undefined);
    assert.equal(got.headers.vary, undefined);
  });

  test('HEAD carries the headers of GET, the coded length included', async () => {
    for (const coding of CODINGS) {
      const get = await fetchRaw(`${url}/big`, { 'accept-encoding': coding });
      const head = await fetchRaw(`${url}/big`, { 'accept-encoding': coding }, 'HEAD');
      assert.equal(head.raw.length, 0);
      for (const name of ['content-encoding', 'content-length', 'content-type', 'vary']) assert.equal(head.headers[name], get.headers[name], name);
    }
    const streamHead = await fetchRaw(`${url}/lines`, { 'accept-encoding': 'gzip' }, 'HEAD');
    assert.equal(streamHead.headers['content-encoding'], 'gzip');
    assert.equal(streamHead.headers.vary, 'Accept-Encoding');
  });

  test('ndjson and csv streams in each coding, decoded byte for byte', async () => {
    let ndjson = '';
    for (let i = 0; i < 2000; i++) ndjson += `{"i":${i}}\n`;
    let csv = 'i,label\r\n';
    for (let i = 0; i < 2000; i++) csv += `${i},"n, ${i}"\r\n`;
    for (const coding of CODINGS) {
      const lines = await fetchRaw(`${url}/lines`, { 'accept-encoding': coding });
      assert.equal(lines.headers['content-encoding'], coding);
      assert.equal(lines.headers['content-length'], undefined);
      assert.equal(lines.headers.vary, 'Accept-Encoding');
      assert.ok(lines.text === ndjson, `${coding}: ndjson`);
      const rows = await fetchRaw(`${url}/rows.csv`, { 'accept-encoding': coding });
      assert.equal(rows.headers['content-encoding'], coding);
      assert.ok(rows.text === csv, `${coding}: csv`);
    }
    const plain = await fetchRaw(`${url}/lines`);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.text === ndjson);
  });

  test('SSE is never compressed, and says nothing of Accept-Encoding', async () => {
    const got = await fetchRaw(`${url}/feed`, { 'accept-encoding': 'gzip, br' });
    assert.equal(got.headers['content-encoding'], undefined);
    assert.equal(got.headers.vary, undefined);
    assert.match(got.text, /data: \{"i":49\}/);
  });

  test('problems are not compressed', async () => {
    const got = await fetchRaw(`${url}/problem`, { 'accept-encoding': 'gzip' });
    assert.equal(got.status, 404);
    assert.equal(got.headers['content-encoding'], undefined);
  });
});

describe('a compressed stream stays streamed', () => {
  test('the first ndjson line arrives, decoded, while the source still waits for the test', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let ended = false;
    async function* source(): AsyncGenerator<unknown> {
      yield { first: true };
      // The rest comes only once the client has decoded the first line.
      await released;
      yield { second: true };
      ended = true;
    }
    const feed = endpoint('GET /feed', () => streamResult(source()).result);
    const log = new LogCapture();
    const app = await buildServer({
      endpoints: [
        { ...feed, representation: { compression: { encodings: ['gzip'], minSize: 1024, gzipLevel: 6, brotliQuality: 4, zstdLevel: 3 }, etag: false } },
      ],
      bodyLimit: 1024,
      requestTimeoutMs: 10_000,
      logger: createLogger({ stream: log }),
    });
    try {
      const url = await listenLocal(app);
      const res = await open(`${url}/feed`, { 'accept-encoding': 'gzip' });
      assert.equal(res.headers['content-encoding'], 'gzip');
      const gunzip = zlib.createGunzip();
      res.pipe(gunzip);
      let text = '';
      await new Promise<void>((resolve, reject) => {
        gunzip.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          if (text.includes('\n')) resolve();
        });
        gunzip.on('error', reject);
      });
      assert.equal(text, '{"first":true}\n');
      assert.equal(ended, false, 'the source had not ended when the first line was decoded');
      release();
      await new Promise<void>((resolve) => gunzip.on('end', resolve));
      assert.equal(text, '{"first":true}\n{"second":true}\n');
      assert.equal(ended, true);
    } finally {
      await app.close();
    }
  });
});

describe('backpressure through the compressor', () => {
  const representation: RepresentationModel = {
    compression: { encodings: ['gzip'], minSize: 1024, gzipLevel: 6, brotliQuality: 4, zstdLevel: 3 },
    etag: false,
  };

  test('a client that reads nothing stops the source; once it reads, every line arrives, decoded', async () => {
    // Random text compresses to about half: 10,000 lines of 8 KiB are ~40 MiB on the wire.
    const line = (i: number): { i: number; pad: string } => ({ i, pad: randomBytes(4096).toString('hex') });
    let pulled = 0;
    let disposals: { end: string }[] = [];
    async function* items(): AsyncGenerator<unknown> {
      for (let i = 0; i < 10_000; i++) {
        pulled++;
        yield line(i);
      }
    }
    const feed = endpoint('GET /lines', () => {
      const made = streamResult(items());
      disposals = made.disposals;
      return made.result;
    });
    const app = await buildServer({
      endpoints: [{ ...feed, representation }],
      bodyLimit: 1024,
      requestTimeoutMs: 10_000,
      logger: createLogger({ stream: new LogCapture() }),
    });
    try {
      const url = await listenLocal(app);
      const res = await open(`${url}/lines`, { 'accept-encoding': 'gzip' });
      assert.equal(res.headers['content-encoding'], 'gzip');
      res.pause();
      // Wait until the source has not been pulled for 200 ms (within 5 s), then it must stay there.
      let whilePaused = -1;
      for (let waited = 0; pulled !== whilePaused && waited < 5_000; waited += 200) {
        whilePaused = pulled;
        await sleep(200);
      }
      assert.ok(whilePaused < 1000, `pulled ${whilePaused} lines while the client read nothing`);
      await sleep(200);
      assert.equal(pulled, whilePaused, 'no more pulling while the client still reads nothing');
      const gunzip = zlib.createGunzip();
      let lines = 0;
      let tail = '';
      gunzip.on('data', (chunk: Buffer) => {
        const parts = (tail + chunk.toString('utf8')).split('\n');
        tail = parts.pop()!;
        lines += parts.length;
      });
      res.pipe(gunzip);
      await new Promise((resolve) => gunzip.on('end', resolve));
      assert.equal(lines, 10_000);
      await until(() => disposals.length === 1);
      assert.deepEqual(disposals, [{ end: 'complete' }]);
    } finally {
      await app.close();
    }
  });

  test('a client that leaves mid-stream: the source is stopped and the stream disposed', async () => {
    let disposals: { end: string }[] = [];
    let returned = false;
    async function* items(): AsyncGenerator<unknown> {
      try {
        for (let i = 0; ; i++) yield { i, pad: randomBytes(512).toString('hex') };
      } finally {
        returned = true;
      }
    }
    const feed = endpoint('GET /lines', () => {
      const made = streamResult(items());
      disposals = made.disposals;
      return made.result;
    });
    const app = await buildServer({
      endpoints: [{ ...feed, representation }],
      bodyLimit: 1024,
      requestTimeoutMs: 10_000,
      logger: createLogger({ stream: new LogCapture() }),
    });
    try {
      const url = await listenLocal(app);
      const res = await open(`${url}/lines`, { 'accept-encoding': 'gzip' });
      await new Promise((resolve) => res.once('data', resolve));
      res.destroy();
      await until(() => disposals.length === 1 && returned);
      assert.deepEqual(disposals, [{ end: 'cancel' }]);
    } finally {
      await app.close();
    }
  });
});

describe('with CORS', () => {
  let s: ServedService;
  let url: string;
  before(async () => {
    s = await serveManifest(`
server {
  cors {
    allowed_origins   = ["https://app.example.com"]
    allow_credentials = true
  }
  compression {}
}
route "GET /big" {
  etag = true
  respond {
    body = { items = [for i in ${upTo(300)} : { i = i }] }
  }
}
route "GET /lines" {
  stream "ndjson" {
    source = [for i in ${upTo(100)} : { i = i }]
  }
}
`);
    url = await listenLocal(s.app);
  });
  after(() => s.close());

  test('Vary names both Origin and Accept-Encoding, on bodies, 304s and streams, with the CORS headers kept', async () => {
    const headers = { origin: 'https://app.example.com', 'accept-encoding': 'gzip' };
    const body = await fetchRaw(`${url}/big`, headers);
    const lines = await fetchRaw(`${url}/lines`, headers);
    const notModified = await fetchRaw(`${url}/big`, { ...headers, 'if-none-match': body.headers.etag! });
    assert.equal(notModified.status, 304);
    for (const got of [body, lines, notModified]) {
      const vary = (got.headers.vary ?? '').split(',').map((v) => v.trim().toLowerCase());
      assert.ok(vary.includes('origin') && vary.includes('accept-encoding'), `Vary: ${got.headers.vary}`);
      assert.equal(got.headers['access-control-allow-origin'], 'https://app.example.com');
      assert.equal(got.headers['access-control-allow-credentials'], 'true');
    }
    assert.equal(body.headers['content-encoding'], 'gzip');
    assert.equal(lines.headers['content-encoding'], 'gzip');
  });
});

describe('documentation endpoints', () => {
  test('the OpenAPI document is compressed once per coding, with its own tag; either tag revalidates', async () => {
    const source = `
server {
  compression {
    min_size = 100
  }
}
endpoint "GET /openapi.json" {
  openapi {
    format = "json"
  }
}
endpoint "GET /openapi.yaml" {
  compression = false
  openapi {
    format = "yaml"
  }
}
route "GET /items/{id}" {
  respond {
    body = { id = ctx.request.path.id }
  }
}
`;
    const built = buildServiceModel([{ filename: 'main.hcl', source }]);
    assert.ok(built.model, built.diagnostics.map((d) => d.summary).join('; '));
    const service = compileService(built.model);
    const app = await buildServer({
      endpoints: service.endpoints,
      docs: docsSites(service.docs, built.model),
      bodyLimit: 1024,
      requestTimeoutMs: 10_000,
      logger: createLogger({ stream: new LogCapture() }),
    });
    try {
      const url = await listenLocal(app);
      const plain = await fetchRaw(`${url}/openapi.json`);
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.headers.vary, 'Accept-Encoding');
      assert.equal(JSON.parse(plain.text).openapi.startsWith('3.'), true);
      for (const coding of CODINGS) {
        const got = await fetchRaw(`${url}/openapi.json`, { 'accept-encoding': coding });
        assert.equal(got.headers['content-encoding'], coding);
        assert.ok(got.text === plain.text, coding);
        assert.equal(got.headers.etag, codedTag(plain.headers.etag!, coding as ContentCoding));
        assert.equal(Number(got.headers['content-length']), got.raw.length);
        const again = await fetchRaw(`${url}/openapi.json`, { 'accept-encoding': coding, 'if-none-match': plain.headers.etag! });
        assert.equal(again.status, 304);
        assert.equal(again.headers.etag, got.headers.etag);
      }
      const yaml = await fetchRaw(`${url}/openapi.yaml`, { 'accept-encoding': 'gzip' });
      assert.equal(yaml.headers['content-encoding'], undefined);
      assert.equal(yaml.headers.vary, undefined);
      assert.equal((await fetchRaw(`${url}/openapi.yaml`, { 'if-none-match': `${yaml.headers.etag!.slice(0, -1)}-gzip"` })).status, 200);
    } finally {
      await app.close();
    }
  });
});

describe('on a rate-limited endpoint', () => {
  test("the limit's headers stay on a compressed answer", async () => {
    const s = await serveManifest(`
server {
  compression {}
}
route "GET /limited" {
  rate_limit {
    max    = 100
    window = "1m"
  }
  respond {
    body = { items = [for i in ${upTo(300)} : { i = i }] }
  }
}
`);
    try {
      const url = await listenLocal(s.app);
      const got = await fetchRaw(`${url}/limited`, { 'accept-encoding': 'gzip' });
      assert.equal(got.status, 200);
      assert.equal(got.headers['content-encoding'], 'gzip');
      assert.match(String(got.headers.ratelimit), /;r=99;/);
      assert.ok(got.headers['ratelimit-policy'] !== undefined);
    } finally {
      await s.close();
    }
  });
});
