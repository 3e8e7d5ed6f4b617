/**
 * Guards on endpoints, through the HTTP adapter: any-of over several guards, the server default and
 * an endpoint's own list, `auth = []`, the check before the body and before any step (a guarded
 * stream answers 401 before any byte), HEAD, and `ctx.auth` in expressions, sql and Starlark.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveManifest, type ServedService } from '../http/helpers.js';
import { basic } from './helpers.js';

let svc: ServedService;
let dir: string;

const manifest = (migrations: string) => `
openapi {
  title = "Notes"
}
server {
  auth = [auth.admin]
}
auth "admin" {
  type     = "basic"
  username = "admin"
  password = "admin-pw"
}
auth "keys" {
  type = "api_key"
  keys = { alice = "k-alice", bob = "k-bob" }
}
auth "tokens" {
  type   = "bearer"
  tokens = ["t-1"]
}
connection "postgres" "db" {
  url        = "pglite:"
  migrations = "${migrations}"
}
connection "redis" "c" {
  url = "memory:"
}

endpoint "GET /default" {
  pipeline {
    respond {
      body = ctx.auth.guard
    }
  }
}

endpoint "GET /any" {
  auth = [auth.admin, auth.keys, auth.tokens]
  pipeline {
    respond {
      body = { guard = ctx.auth.guard, principal = ctx.auth.principal }
    }
  }
}

endpoint "GET /keys-only" {
  auth = [auth.keys]
  pipeline {
    respond {
      body = ctx.auth.principal
    }
  }
}

endpoint "GET /public" {
  auth = []
  pipeline {
    respond {
      body = { auth = ctx.auth }
    }
  }
}

endpoint "POST /upload" {
  auth = [auth.keys]
  request {
    body = schema.note
  }
  pipeline {
    respond {
      status = 201
      body   = ctx.request.body
    }
  }
}

schema "note" {
  field "text" {
    type     = string
    required = true
  }
}

endpoint "GET /notes" {
  auth = [auth.keys]
  pipeline {
    sql "mine" {
      connection = connection.postgres.db
      query      = "SELECT text FROM notes WHERE owner = @owner ORDER BY id"
      args = {
        owner = ctx.auth.principal
      }
    }
    respond {
      body = [for r in steps.mine.rows : r.text]
    }
  }
}

endpoint "GET /whoami" {
  auth = [auth.keys]
  pipeline {
    starlark "who" {
      source = <<-EOT
        def execute(ctx):
            return "%s via %s" % (ctx["auth"]["principal"], ctx["auth"]["guard"])
      EOT
    }
    respond {
      body = steps.who.result
    }
  }
}

endpoint "GET /export" {
  auth = [auth.keys]
  pipeline {
    redis "hit" {
      connection = connection.redis.c
      command    = "INCR"
      key        = "exports"
    }
    stream "ndjson" {
      source = [{ n = steps.hit.value }, { n = 2 }]
    }
  }
}

endpoint "GET /exports" {
  auth = []
  pipeline {
    redis "count" {
      connection = connection.redis.c
      command    = "GET"
      key        = "exports"
    }
    respond {
      body = steps.count.value
    }
  }
}
`;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-auth-'));
  mkdirSync(join(dir, 'migrations'));
  writeFileSync(
    join(dir, 'migrations', '001_notes.sql'),
    `CREATE TABLE notes (id serial PRIMARY KEY, owner text NOT NULL, text text NOT NULL);
INSERT INTO notes (owner, text) VALUES ('alice', 'a1'), ('bob', 'b1'), ('alice', 'a2');`,
  );
  svc = await serveManifest(manifest(join(dir, 'migrations')));
});
after(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => svc.app.inject({ url, headers });

test('any of several guards admits; ctx.auth names the one that did', async () => {
  assert.deepEqual((await get('/any', { authorization: basic('admin', 'admin-pw') })).json(), { guard: 'admin', principal: 'admin' });
  assert.deepEqual((await get('/any', { 'x-api-key': 'k-bob' })).json(), { guard: 'keys', principal: 'bob' });
  assert.deepEqual((await get('/any', { authorization: 'Bearer t-1' })).json(), { guard: 'tokens', principal: 'token1' });
  // A wrong credential for one guard does not stop another from admitting.
  assert.deepEqual((await get('/any', { authorization: basic('admin', 'nope'), 'x-api-key': 'k-alice' })).json(), { guard: 'keys', principal: 'alice' });
});

test('none admits: 401 with a challenge per scheme (none for API keys)', async () => {
  const r = await get('/any', { authorization: 'Bearer nope' });
  assert.equal(r.statusCode, 401);
  assert.deepEqual(r.headers['www-authenticate'], ['Basic realm="Notes", charset="UTF-8"', 'Bearer realm="Notes"']);
  assert.equal((r.json() as { detail: string }).detail, 'the credentials are not valid');
  const keysOnly = await get('/keys-only');
  assert.equal(keysOnly.statusCode, 401);
  assert.equal(keysOnly.headers['www-authenticate'], undefined);
  assert.equal((keysOnly.json() as { detail: string }).detail, 'this endpoint requires an API key in the header x-api-key');
});

test('server.auth guards an endpoint without auth; an endpoint list replaces it; auth = [] is public with ctx.auth null', async () => {
  assert.equal((await get('/default')).statusCode, 401);
  assert.equal((await get('/default', { authorization: basic('admin', 'admin-pw') })).json(), 'admin');
  // /keys-only lists its own guard: the server's admin credentials do not open it.
  assert.equal((await get('/keys-only', { authorization: basic('admin', 'admin-pw') })).statusCode, 401);
  const open = await get('/public');
  assert.equal(open.statusCode, 200);
  assert.deepEqual(open.json(), { auth: null });
});

test('the guard runs before the body is read: a refused request is 401, not 400, 413 or 415', async () => {
  const cases = [
    { payload: '{not json', headers: { 'content-type': 'application/json' } },
    { payload: 'x'.repeat(2 * 1024 * 1024), headers: { 'content-type': 'application/json' } },
    { payload: 'text', headers: { 'content-type': 'text/plain' } },
    { payload: '{}', headers: { 'content-type': 'application/json' } },
  ];
  for (const c of cases) {
    const refused = await svc.app.inject({ method: 'POST', url: '/upload', ...c });
    assert.equal(refused.statusCode, 401, c.payload.slice(0, 10));
  }
  const admitted = [400, 413, 415, 422];
  for (const [i, c] of cases.entries()) {
    const r = await svc.app.inject({ method: 'POST', url: '/upload', payload: c.payload, headers: { ...c.headers, 'x-api-key': 'k-alice' } });
    assert.equal(r.statusCode, admitted[i], c.payload.slice(0, 10));
  }
  const ok = await svc.app.inject({ method: 'POST', url: '/upload', payload: { text: 'hi' }, headers: { 'x-api-key': 'k-alice' } });
  assert.equal(ok.statusCode, 201);
});

test('a sql step scopes its query to ctx.auth.principal; Starlark reads ctx["auth"]', async () => {
  assert.deepEqual((await get('/notes', { 'x-api-key': 'k-alice' })).json(), ['a1', 'a2']);
  assert.deepEqual((await get('/notes', { 'x-api-key': 'k-bob' })).json(), ['b1']);
  assert.equal((await get('/whoami', { 'x-api-key': 'k-bob' })).json(), 'bob via keys');
});

test('HEAD of a guarded GET is guarded too', async () => {
  assert.equal((await svc.app.inject({ method: 'HEAD', url: '/keys-only' })).statusCode, 401);
  assert.equal((await svc.app.inject({ method: 'HEAD', url: '/keys-only', headers: { 'x-api-key': 'k-alice' } })).statusCode, 200);
});

/** A raw GET over a real socket: status, headers and every byte of the body. */
async function fetchRaw(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a guarded ndjson stream: 401 before any byte of the stream and before any step runs', async () => {
  await svc.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (svc.app.server.address() as AddressInfo).port;
  for (const headers of [{}, { 'x-api-key': 'wrong' }] as Record<string, string>[]) {
    const r = await fetchRaw(port, '/export', headers);
    assert.equal(r.status, 401);
    assert.match(String(r.headers['content-type']), /^application\/problem\+json/);
    assert.equal(r.headers['transfer-encoding'], undefined, 'an ordinary answer, not a stream');
    assert.equal((JSON.parse(r.body) as { type: string }).type, 'urn:svc:error:unauthorized');
  }
  // No step ran for the refused requests: the counter the stream's first step increments is unset
  // (a null body is sent as no body).
  assert.equal((await get('/exports')).body, '');
  const ok = await fetchRaw(port, '/export', { 'x-api-key': 'k-alice' });
  assert.equal(ok.status, 200);
  assert.equal(ok.headers['content-type'], 'application/x-ndjson');
  assert.equal(ok.body, '{"n":1}\n{"n":2}\n');
  assert.equal((await get('/exports')).json(), 1);
});
