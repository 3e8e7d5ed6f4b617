/**
 * The http step end to end: a manifest served in-process, calling real upstream servers on loopback.
 * Data (JSON, text, headers, the upstream's own 4xx/5xx), hop-by-hop fields in both directions, and
 * the faults: refused (502), reset mid-response (502), a hang (504 at the step time-out, upstream
 * socket closed), a 1 GB body to a buffered step (502 within the size limit, upstream socket closed).
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { serve, upstream, type Served, type Upstream } from './helpers.js';

const GiB = 1024 * 1024 * 1024;
const LIMIT = 10 * 1024 * 1024;

const MANIFEST = `
endpoint "GET /json" {
  pipeline {
    http "up" {
      url = "{{UPSTREAM}}/json"
    }
    respond {
      body = steps.up
    }
  }
}

endpoint "POST /order" {
  pipeline {
    http "up" {
      url     = "{{UPSTREAM}}/echo"
      method  = "POST"
      headers = { "X-Trace" = "t-1", Accept = "application/json", "X-Count" = 3 }
      body    = { sku = "A-1", qty = 2, tags = ["x"] }
    }
    respond {
      body = steps.up.body
    }
  }
}

endpoint "POST /note" {
  pipeline {
    http "up" {
      url    = "{{UPSTREAM}}/echo"
      method = "PUT"
      body   = "just text"
    }
    respond {
      body = steps.up.body
    }
  }
}

endpoint "GET /text" {
  pipeline {
    http "up" {
      url = "{{UPSTREAM}}/text"
    }
    respond {
      body = steps.up
    }
  }
}

endpoint "GET /items/{id}" {
  request {
    path {
      field "id" {
        type = int
      }
    }
    query {
      field "q" {
        type    = string
        default = ""
      }
    }
  }
  pipeline {
    http "up" {
      url = "{{UPSTREAM}}/items/\${ctx.request.path.id}?q=\${url_encode(ctx.request.query.q)}"
    }
    respond {
      body = steps.up.body
    }
  }
}

endpoint "GET /status/{code}" {
  request {
    path {
      field "code" {
        type = int
      }
    }
  }
  pipeline {
    http "up" {
      url = "{{UPSTREAM}}/status/\${ctx.request.path.code}"
    }
    respond {
      condition = steps.up.status >= 400
      status    = 200
      body      = { upstream = steps.up.status, said = steps.up.body }
    }
    respond {
      body = "fine"
    }
  }
}

endpoint "GET /hop" {
  pipeline {
    http "up" {
      url     = "{{UPSTREAM}}/hop"
      headers = ctx.request.headers
    }
    respond {
      body = { headers = steps.up.headers }
    }
  }
}

endpoint "GET /refused" {
  pipeline {
    http "up" {
      url = "http://127.0.0.1:{{CLOSED_PORT}}/x"
    }
    respond {
      body = steps.up
    }
  }
}

endpoint "GET /reset" {
  pipeline {
    http "up" {
      url = "{{UPSTREAM}}/reset"
    }
    respond {
      body = steps.up
    }
  }
}

endpoint "GET /hang" {
  pipeline {
    http "up" {
      url     = "{{UPSTREAM}}/hang"
      timeout = "300ms"
    }
    respond {
      body = steps.up
    }
  }
}

endpoint "GET /huge/{mode}" {
  request {
    path {
      field "mode" {
        type = string
      }
    }
  }
  pipeline {
    http "up" {
      url     = "{{UPSTREAM}}/huge/\${ctx.request.path.mode}"
      timeout = "60s"
    }
    respond {
      body = steps.up.status
    }
  }
}

endpoint "GET /guarded/{what...}" {
  request {
    path {
      field "what" {
        type = string
      }
    }
  }
  pipeline {
    http "up" {
      # A rest-of-path value, slashes and all: the author's explicit opt-out of encoding.
      url = "{{UPSTREAM}}/\${unencoded(ctx.request.path.what)}"
    }
    respond {
      body = steps.up.body
    }
  }
}

endpoint "GET /bad-json" {
  pipeline {
    http "up" {
      url = "{{UPSTREAM}}/bad-json"
    }
    respond {
      body = steps.up
    }
  }
}

endpoint "GET /verbatim/{kind}" {
  request {
    path {
      field "kind" {
        type = string
      }
    }
  }
  pipeline {
    http "up" {
      url = "{{UPSTREAM}}/verbatim/\${ctx.request.path.kind}"
    }
    respond {
      condition = ctx.request.path.kind == "wrapped"
      body      = { wrapped = steps.up.body }
    }
    respond {
      body = steps.up.body
    }
  }
}
`;

/** JSON as an upstream may write it: its own spacing, an integer past 2^53, an escape (or none). */
const VERBATIM = '{ "id" : 9007199254740993,\n  "name": "caf\\u00e9", "tags": [ 1, 2 ] }\n';
const VERBATIM_UNESCAPED = '{ "id" : 9007199254740993,\n  "name": "café", "tags": [ 1, 2 ] }\n';

/** Per request of the fault routes: the request and response, for tests to watch their socket. */
const seen: { req: IncomingMessage; res: ServerResponse; written: () => number; closed: Promise<void> }[] = [];

/** Resolves when the request's connection closes; watched from its arrival, so no close is missed. */
function closeOf(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => req.socket.once('close', () => resolve()));
}

/** `promise`, or a failure naming `what` after `ms` (the bound the test promises). */
async function bounded(promise: Promise<void>, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new assert.AssertionError({ message: `${what}: not closed within ${ms} ms` })), ms);
  });
  try {
    await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

function route(req: IncomingMessage, res: ServerResponse, body: string): void {
  const url = req.url!;
  if (url === '/json') {
    res.setHeader('content-type', 'application/json');
    res.setHeader('X-Upstream', 'yes');
    res.setHeader('Set-Cookie', ['a=1', 'b=2']);
    res.end(JSON.stringify({ id: 7, name: 'widget', big: 12345678901234 }));
  } else if (url === '/echo') {
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(JSON.stringify({ method: req.method, contentType: req.headers['content-type'] ?? null, body, trace: req.headers['x-trace'] ?? null }));
  } else if (url === '/text') {
    res.setHeader('content-type', 'text/plain; charset=utf-8');
    res.end('héllo');
  } else if (url.startsWith('/items/')) {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ path: url }));
  } else if (url.startsWith('/status/')) {
    const code = Number(url.slice('/status/'.length));
    res.statusCode = code;
    res.setHeader('content-type', 'application/problem+json');
    res.end(JSON.stringify({ title: `upstream says ${code}` }));
  } else if (url === '/hop') {
    // Hop-by-hop fields on the way back, and one made hop-by-hop by being named in Connection.
    res.setHeader('Connection', 'keep-alive, X-Private');
    res.setHeader('X-Private', 'secret');
    res.setHeader('Keep-Alive', 'timeout=5');
    res.setHeader('Proxy-Authenticate', 'Basic');
    res.setHeader('Trailer', 'X-Sum');
    res.setHeader('Upgrade', 'h2c');
    res.setHeader('X-End', 'kept');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: true }));
  } else if (url === '/reset') {
    res.setHeader('content-type', 'application/json');
    res.setHeader('content-length', '1000');
    res.write('{"partial":');
    setTimeout(() => req.socket.destroy(), 20);
  } else if (url === '/hang') {
    seen.push({ req, res, written: () => 0, closed: closeOf(req) });
  } else if (url.startsWith('/huge/')) {
    let written = 0;
    seen.push({ req, res, written: () => written, closed: closeOf(req) });
    res.setHeader('content-type', 'application/octet-stream');
    if (url.endsWith('/declared')) res.setHeader('content-length', String(GiB));
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    // 1 GiB generated lazily: one 64 KiB chunk at a time, only as fast as the socket takes it.
    const pump = (): void => {
      while (written < GiB && !res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!res.destroyed) res.end();
    };
    pump();
  } else if (url === '/proto/plain' || url === '/proto/escaped') {
    res.setHeader('content-type', 'application/json');
    res.end(url.endsWith('plain') ? '{"a": {"__proto__": {"admin": true}}}' : '{"a": {"\\u005f_proto__": {"admin": true}}}');
  } else if (url === '/constructor') {
    res.setHeader('content-type', 'application/json');
    res.end('{"constructor": "Ford", "note": "caf\\u00e9"}');
  } else if (url.startsWith('/verbatim/')) {
    res.setHeader('content-type', 'application/json');
    // With a byte order mark, which is not part of the JSON text.
    res.end(url.endsWith('/bom') ? `\ufeff${VERBATIM}` : url.endsWith('/unescaped') ? VERBATIM_UNESCAPED : VERBATIM);
  } else if (url === '/bad-json') {
    res.setHeader('content-type', 'application/json');
    res.end('{"oops": ');
  } else {
    res.statusCode = 404;
    res.end();
  }
}

let up: Upstream;
let svc: Served;
let closedPort: number;

before(async () => {
  up = await upstream(route);
  // A port that was free a moment ago and has nobody listening now: connections are refused.
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  closedPort = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  svc = await serve(MANIFEST.replaceAll('{{CLOSED_PORT}}', String(closedPort)), up.url);
});

after(async () => {
  await svc?.close();
  await up?.close();
});

/** The upstream request the last fault route recorded, once it arrives. */
async function nextSeen(count: number): Promise<(typeof seen)[number]> {
  while (seen.length < count) await new Promise((r) => setTimeout(r, 5));
  return seen[count - 1]!;
}

describe('data', () => {
  test("a JSON body answered as it is: the upstream's text as sent (spacing, an exact integer past 2^53), without a byte order mark", async () => {
    for (const kind of ['plain', 'bom', 'unescaped']) {
      const res = await svc.app.inject({ method: 'GET', url: `/verbatim/${kind}` });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.headers['content-type'] as string, /^application\/json/);
      assert.equal(res.body, kind === 'unescaped' ? VERBATIM_UNESCAPED : VERBATIM, kind);
    }
    // A value built from it is written out as JSON (the number as JSON.parse read it).
    const res = await svc.app.inject({ method: 'GET', url: '/verbatim/wrapped' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.body, '{"wrapped":{"id":9007199254740992,"name":"café","tags":[1,2]}}');
  });

  test('GET of JSON: status, lower-cased headers, parsed body', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/json' });
    assert.equal(res.statusCode, 200);
    const out = res.json() as { status: number; headers: Record<string, unknown>; body: unknown };
    assert.equal(out.status, 200);
    assert.deepEqual(out.body, { id: 7, name: 'widget', big: 12345678901234 });
    assert.equal(out.headers['x-upstream'], 'yes');
    assert.equal(out.headers['content-type'], 'application/json');
    assert.deepEqual(out.headers['set-cookie'], ['a=1', 'b=2']);
    for (const name of Object.keys(out.headers)) assert.equal(name, name.toLowerCase());
  });

  test('POST of a JSON body: encoded, with its content type and the step headers', async () => {
    const res = await svc.app.inject({ method: 'POST', url: '/order' });
    assert.equal(res.statusCode, 200);
    const out = res.json() as { method: string; contentType: string; body: string; trace: string };
    assert.equal(out.method, 'POST');
    assert.equal(out.contentType, 'application/json');
    assert.deepEqual(JSON.parse(out.body), { sku: 'A-1', qty: 2, tags: ['x'] });
    assert.equal(out.trace, 't-1');
    const last = up.received.at(-1)!;
    assert.equal(last.headers['x-count'], '3');
    assert.equal(last.headers['accept'], 'application/json');
  });

  test('a string body is sent as text', async () => {
    const res = await svc.app.inject({ method: 'POST', url: '/note' });
    const out = res.json() as { method: string; contentType: string; body: string };
    assert.deepEqual(out, { method: 'PUT', contentType: 'text/plain; charset=utf-8', body: 'just text', trace: null });
  });

  test('a text response is the body as a string', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/text' });
    const out = res.json() as { status: number; body: unknown };
    assert.equal(out.body, 'héllo');
  });

  test('a URL computed per request (the shared agent)', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/items/42?q=a%20b' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { path: '/items/42?q=a+b' });
  });

  test("the upstream's 404 and 500 are data for respond, not failures", async () => {
    for (const code of [404, 500, 503]) {
      const res = await svc.app.inject({ method: 'GET', url: `/status/${code}` });
      assert.equal(res.statusCode, 200, `upstream ${code}`);
      assert.deepEqual(res.json(), { upstream: code, said: { title: `upstream says ${code}` } });
    }
  });

  test('JSON with a __proto__ key, plain or escaped, is refused (502); ordinary keys and escapes are data', async () => {
    for (const what of ['proto/plain', 'proto/escaped']) {
      const res = await svc.app.inject({ method: 'GET', url: `/guarded/${what}` });
      assert.equal(res.statusCode, 502, what);
    }
    const res = await svc.app.inject({ method: 'GET', url: '/guarded/constructor' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { constructor: 'Ford', note: 'café' });
  });

  test('an upstream body that says JSON and is not: 502', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/bad-json' });
    assert.equal(res.statusCode, 502);
    assert.equal(res.json().type, 'urn:svc:error:bad-gateway');
  });
});

describe('hop-by-hop header fields', () => {
  test('are not forwarded to the upstream, nor taken from its response', async () => {
    const res = await svc.app.inject({
      method: 'GET',
      url: '/hop',
      headers: {
        connection: 'keep-alive, X-Drop-Me',
        'x-drop-me': 'hop',
        'keep-alive': 'timeout=5',
        te: 'trailers',
        'proxy-authorization': 'Basic eA==',
        'x-forward-me': 'end-to-end',
        'accept-encoding': 'gzip',
        expect: '100-continue',
      },
    });
    assert.equal(res.statusCode, 200);
    const sent = up.received.at(-1)!;
    assert.equal(sent.headers['x-forward-me'], 'end-to-end');
    for (const name of ['x-drop-me', 'keep-alive', 'te', 'proxy-authorization', 'accept-encoding', 'expect']) {
      assert.equal(sent.headers[name], undefined, `${name} was forwarded`);
    }
    // The upstream connection's own Connection header is the client's (keep-alive), not svc's client's.
    assert.ok(!/x-drop-me/i.test(String(sent.headers.connection ?? '')));
    assert.equal(sent.headers.host, `127.0.0.1:${up.port}`);

    const back = (res.json() as { headers: Record<string, unknown> }).headers;
    assert.equal(back['x-end'], 'kept');
    for (const name of ['connection', 'x-private', 'keep-alive', 'proxy-authenticate', 'trailer', 'upgrade', 'transfer-encoding']) {
      assert.equal(back[name], undefined, `${name} came back`);
    }
  });
});

describe('faults', () => {
  test('a refused connection is a 502 bad-gateway problem', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/refused' });
    assert.equal(res.statusCode, 502);
    const problem = res.json();
    assert.equal(problem.type, 'urn:svc:error:bad-gateway');
    assert.equal(problem.title, 'Bad Gateway');
    assert.equal(problem.step, 'up');
    assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
  });

  test('a connection reset mid-response is a 502', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/reset' });
    assert.equal(res.statusCode, 502);
    assert.equal(res.json().type, 'urn:svc:error:bad-gateway');
  });

  test('an upstream that hangs: 504 at the step time-out, and its socket is closed', async () => {
    const count = seen.length + 1;
    const pending = svc.app.inject({ method: 'GET', url: '/hang' });
    const { closed } = await nextSeen(count);
    const res = await pending;
    assert.equal(res.statusCode, 504);
    assert.equal(res.json().type, 'urn:svc:error:timeout');
    await bounded(closed, 5_000, 'the hanging upstream socket');
  });

  for (const mode of ['chunked', 'declared']) {
    test(`a 1 GB body (${mode}) to a buffered step: 502 within the size limit, upstream socket closed`, async () => {
      const count = seen.length + 1;
      const pending = svc.app.inject({ method: 'GET', url: `/huge/${mode}` });
      const { written, closed } = await nextSeen(count);
      const res = await pending;
      assert.equal(res.statusCode, 502);
      assert.equal(res.json().type, 'urn:svc:error:bad-gateway');
      await bounded(closed, 10_000, 'the upstream socket of the 1 GB body');
      // Read no further than the limit, plus what the kernel's socket buffers on both sides held
      // (several MiB each with loopback autotuning): never anywhere near the end.
      assert.ok(written() < LIMIT + 32 * 1024 * 1024, `the upstream wrote ${written()} bytes`);
      // The log line says why, in words.
      const line = svc.log.requests().find((l) => l.url === `/huge/${mode}`) as { status: number; err: { message: string } };
      assert.equal(line.status, 502);
      assert.match(line.err.message, /response body .*exceeds the limit of 10 MiB/);
    });
  }
});
