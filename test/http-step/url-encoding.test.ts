/**
 * Request data interpolated into an http step's url (issue 35): a real upstream on loopback records
 * the exact raw path and query it receives. A value is one path segment, or one query value,
 * whatever it holds (`..%2Fadmin`, `%2e%2e%2F`, `..%5C`, `%3F`, `%23`, unicode, nothing); `.` and
 * `..`, which no encoding keeps one segment, are refused with a 400 and never sent; `unencoded(x)`
 * is the author's opt-out; `url_encode(x)` is not encoded twice. And at boot: a warning where request
 * data lands in the host or makes the whole URL, an error for a literal dot segment.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic } from '../../src/diag/index.js';
import { buildServiceModel } from '../../src/steps/index.js';
import { request as httpRequest } from 'node:http';
import { listenLocal } from '../http/stream-helpers.js';
import { serve, upstream, type Served, type Upstream } from './helpers.js';

const MANIFEST = `
endpoint "GET /up/{kind}" {
  request {
    path {
      field "kind" {
        type = string
      }
    }
  }
  pipeline {
    http "up" {
      url = "{{UPSTREAM}}/items/\${ctx.request.path.kind}/detail?x=1"
    }
    respond {
      body = steps.up.body
    }
  }
}

endpoint "POST /segments" {
  request {
    body {
      field "a" {
        type = string
      }
      field "b" {
        type = string
      }
    }
  }
  pipeline {
    http "up" {
      url = "{{UPSTREAM}}/items/\${ctx.request.body.a}/\${ctx.request.body.b}"
    }
    respond {
      body = steps.up.body
    }
  }
}

endpoint "GET /search" {
  request {
    query {
      field "q" {
        type = string
      }
    }
  }
  pipeline {
    http "up" {
      url = "{{UPSTREAM}}/search?q=\${ctx.request.query.q}&lang=en#\${ctx.request.query.q}"
    }
    respond {
      body = steps.up.body
    }
  }
}

endpoint "GET /encoded" {
  request {
    query {
      field "q" {
        type = string
      }
    }
  }
  pipeline {
    http "up" {
      url = "{{UPSTREAM}}/search?q=\${url_encode(ctx.request.query.q)}"
    }
    respond {
      body = steps.up.body
    }
  }
}

endpoint "POST /files" {
  request {
    body {
      field "path" {
        type = string
      }
    }
  }
  pipeline {
    http "up" {
      url = "{{UPSTREAM}}/files/\${unencoded(ctx.request.body.path)}"
    }
    respond {
      body = steps.up.body
    }
  }
}
`;

let up: Upstream;
let svc: Served;
/** svc on a real port: Fastify's inject resolves `/up/%2E%2E` to `/` before routing, a socket does not. */
let base: string;

before(async () => {
  // Answers the raw request target it received, as node:http reports it (nothing decoded or resolved).
  up = await upstream((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ url: req.url }));
  });
  svc = await serve(MANIFEST, up.url);
  base = await listenLocal(svc.app);
});

after(async () => {
  await svc?.close();
  await up?.close();
});

/** GETs `path` from svc's port as written: a URL string would be resolved by the client first. */
function getRaw(path: string): Promise<{ status: number; type: string | undefined; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The raw target the upstream received for one request to svc, or the status when none was sent. */
async function sent(request: { method?: 'GET' | 'POST'; url: string; body?: unknown }): Promise<{ status: number; upstream?: string }> {
  const before = up.received.length;
  const res = await svc.app.inject({
    method: request.method ?? 'GET',
    url: request.url,
    ...(request.body !== undefined ? { payload: request.body as object } : {}),
  });
  const arrived = up.received.slice(before);
  if (res.statusCode !== 200) {
    assert.equal(arrived.length, 0, 'a refused request sends nothing upstream');
    return { status: res.statusCode };
  }
  assert.equal(arrived.length, 1);
  assert.equal((res.json() as { url: string }).url, arrived[0]!.url);
  return { status: 200, upstream: arrived[0]!.url };
}

describe('a value in the path is one segment', () => {
  const cases: [string, string][] = [
    // What the client asks for -> what the upstream receives.
    ['/up/..%2Fadmin', '/items/..%2Fadmin/detail?x=1'],
    ['/up/%2e%2e%2F', '/items/..%2F/detail?x=1'],
    ['/up/..%5C', '/items/..%5C/detail?x=1'],
    ['/up/..%5Cadmin', '/items/..%5Cadmin/detail?x=1'],
    ['/up/%3F', '/items/%3F/detail?x=1'],
    ['/up/a%3Fadmin%3D1', '/items/a%3Fadmin%3D1/detail?x=1'],
    ['/up/%23', '/items/%23/detail?x=1'],
    ['/up/%25', '/items/%25/detail?x=1'],
    ['/up/a%20b+c&d=e', '/items/a%20b%2Bc%26d%3De/detail?x=1'],
    ['/up/caf%C3%A9%E2%9C%93', '/items/caf%C3%A9%E2%9C%93/detail?x=1'],
    ['/up/...', '/items/.../detail?x=1'],
    ['/up/.x', '/items/.x/detail?x=1'],
  ];
  for (const [asked, received] of cases) {
    test(`${asked} -> ${received}`, async () => {
      assert.deepEqual(await sent({ url: asked }), { status: 200, upstream: received });
    });
  }

  test('an empty value is an empty segment', async () => {
    assert.deepEqual(await sent({ method: 'POST', url: '/segments', body: { a: '', b: 'x' } }), { status: 200, upstream: '/items//x' });
  });

  test('a lone UTF-16 surrogate (JSON allows one) is sent as U+FFFD, as UTF-8 text would carry it', async () => {
    assert.deepEqual(await sent({ method: 'POST', url: '/segments', body: '{"a": "\\ud800", "b": "x"}' }), { status: 200, upstream: '/items/%EF%BF%BD/x' });
  });

  test('"." and "..", which no encoding keeps one segment, are refused with a 400 and never sent', async () => {
    for (const value of ['.', '..', '%2E', '%2e%2e', '.%2E']) {
      const before = up.received.length;
      const res = await getRaw(`/up/${value}`);
      assert.equal(res.status, 400, value);
      assert.match(String(res.type), /^application\/problem\+json/);
      assert.equal((JSON.parse(res.body) as { step: string }).step, 'up');
      assert.equal(up.received.length, before, `${value}: nothing sent upstream`);
    }
    for (const [a, b] of [
      ['.', 'x'],
      ['..', 'x'],
      ['x', '..'],
      ['..', '..'],
    ]) {
      assert.equal((await sent({ method: 'POST', url: '/segments', body: { a, b } })).status, 400, `${a} ${b}`);
    }
    // The request's value goes to the log only, with why.
    const line = svc.log.requests().at(-1)!;
    assert.match(String((line.err as { message: string }).message), /has a "\." or "\.\." segment made of request values/);
  });
});

describe('a value in the query is one query value', () => {
  test('& = # + ? and spaces cannot add a parameter or cut the URL', async () => {
    const q = 'a&admin=1#frag+b c?d=/';
    const got = await sent({ url: `/search?q=${encodeURIComponent(q)}` });
    // The fragment (with the value encoded) is not sent: the upstream sees the query only.
    assert.deepEqual(got, { status: 200, upstream: '/search?q=a%26admin%3D1%23frag%2Bb%20c%3Fd%3D%2F&lang=en' });
    const params = new URL(got.upstream!, 'http://x').searchParams;
    assert.deepEqual([...params.keys()], ['q', 'lang']);
    assert.equal(params.get('q'), q);
  });

  test('url_encode(x) is the encoding already: not encoded twice', async () => {
    assert.deepEqual(await sent({ url: `/encoded?q=${encodeURIComponent('a b&c')}` }), { status: 200, upstream: '/search?q=a+b%26c' });
  });
});

test('unencoded(x): the value as written, slashes and all (the explicit opt-out)', async () => {
  assert.deepEqual(await sent({ method: 'POST', url: '/files', body: { path: 'a/b/c.txt' } }), { status: 200, upstream: '/files/a/b/c.txt' });
});

/** Every diagnostic (warnings too) of a manifest with one http step whose attributes are `step`. */
function diagnosticsOf(step: string, request = ''): Diagnostic[] {
  const manifest = `
endpoint "GET /x/{id}" {
  request {
    path {
      field "id" {
        type = string
      }
    }
    ${request}
  }
  pipeline {
    http "up" {
      ${step}
    }
    respond {
      body = steps.up.body
    }
  }
}
`;
  return [...buildServiceModel([{ filename: 'api.hcl', source: manifest }], { dir: '.' }).diagnostics];
}

const WARNING = 'Request data in an http step url';

describe('svc check', () => {
  test('warns where request data lands in the scheme, host or port, with the line and column', () => {
    const diags = diagnosticsOf('url = "http://${ctx.request.path.id}.internal:8080/items/${ctx.request.path.id}"');
    const warnings = diags.filter((d) => d.summary === WARNING);
    assert.equal(warnings.length, 1, JSON.stringify(diags));
    assert.equal(warnings[0]!.severity, 'warning');
    assert.equal(warnings[0]!.subject?.start.line, 13);
    assert.equal(warnings[0]!.subject?.start.column, 23);
  });

  test('warns where the whole URL is computed from request data', () => {
    for (const url of [
      'ctx.request.path.id',
      '"${ctx.request.path.id}"',
      'format("http://h/%s", ctx.request.path.id)',
      'ctx.request.path.id == "a" ? "http://a/" : ctx.request.path.id',
    ]) {
      const warnings = diagnosticsOf(`url = ${url}`).filter((d) => d.summary === WARNING);
      assert.equal(warnings.length, 1, url);
      assert.equal(warnings[0]!.severity, 'warning');
    }
  });

  test('no warning for the safe forms: request data in the path or query, the origin from env() or a previous step', () => {
    for (const url of [
      '"${env("UPSTREAM", "http://127.0.0.1:9")}/items/${ctx.request.path.id}?q=${ctx.request.path.id}"',
      '"http://h/${ctx.request.path.id}"',
      '"${steps.cfg.body.base}/items/${ctx.request.path.id}"',
      'ctx.request.path.id == "a" ? "http://a/${ctx.request.path.id}" : "http://b/${ctx.request.path.id}"',
      '"http://h/${unencoded(ctx.request.path.id)}"',
    ]) {
      const diags = diagnosticsOf(`url = ${url}`).filter((d) => d.summary === WARNING);
      assert.deepEqual(diags, [], url);
    }
  });

  test('a literal "." or ".." segment in a url template is a boot error', () => {
    const errors = diagnosticsOf('url = "http://h/a/../${ctx.request.path.id}"').filter((d) => d.severity === 'error');
    assert.deepEqual(
      errors.map((e) => e.summary),
      ['Invalid http step url'],
    );
  });
});
