/**
 * Brute-force hygiene in the log: a refused request's line names the guards, the reason and the
 * client address, at warn when a wrong credential was sent; no line ever carries a credential, and
 * API keys sent in a query string are redacted from every url (even on a path they do not guard).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { redactQuery } from '../../src/http/log.js';
import { serveManifest, type ServedService } from '../http/helpers.js';
import { basic, hsToken, SECRET } from './helpers.js';

let svc: ServedService;

before(async () => {
  svc = await serveManifest(`
auth "admin" {
  type     = "basic"
  username = "admin"
  password = "s3cret-Password"
}
auth "mobile" {
  type  = "api_key"
  query = "api_key"
  keys  = { app = "k-query-secret" }
}
auth "jwt" {
  type = "bearer"
  jwt {
    secret = "${SECRET}"
  }
}
endpoint "GET /admin" {
  auth = [auth.admin, auth.jwt]
  pipeline {
    respond {
      body = ctx.auth.principal
    }
  }
}
endpoint "GET /mobile" {
  auth = [auth.mobile]
  pipeline {
    respond {
      body = ctx.auth.principal
    }
  }
}
endpoint "GET /fails" {
  auth = [auth.admin]
  pipeline {
    starlark "boom" {
      source = <<-EOT
        def execute(ctx):
            return 1 // 0
      EOT
    }
    respond {
      body = steps.boom.result
    }
  }
}
`);
});
after(() => svc.close());

test('refused requests: guards, reason and client address; warn for a wrong credential, info for none', async () => {
  svc.log.lines.length = 0;
  await svc.app.inject({ url: '/admin' });
  await svc.app.inject({ url: '/admin', headers: { authorization: basic('admin', 'guess-1') } });
  await svc.app.inject({ url: '/admin', headers: { authorization: `Bearer ${await hsToken({ exp: 1 })}` } });
  const [missing, wrong, expired] = svc.log.requests();
  assert.equal(missing!.level, 30);
  assert.deepEqual(missing!.auth, { guards: ['admin', 'jwt'], guard: 'admin', refused: 'no Basic credentials', presented: false, client: '127.0.0.1' });
  assert.equal(wrong!.level, 40);
  assert.equal(wrong!.status, 401);
  assert.deepEqual(wrong!.auth, { guards: ['admin', 'jwt'], guard: 'admin', refused: 'wrong user name or password', presented: true, client: '127.0.0.1' });
  assert.equal((expired!.auth as { refused: string; guard: string }).refused, 'token expired');
  assert.equal((expired!.auth as { refused: string; guard: string }).guard, 'jwt');
});

test('no line carries a credential: Authorization, a query key (on any path), admitted or refused, failed or not', async () => {
  svc.log.lines.length = 0;
  const token = await hsToken({ sub: 'u' });
  await svc.app.inject({ url: '/admin', headers: { authorization: basic('admin', 's3cret-Password') } });
  await svc.app.inject({ url: '/admin', headers: { authorization: `Bearer ${token}` } });
  await svc.app.inject({ url: '/mobile?api_key=k-query-secret&x=1' });
  await svc.app.inject({ url: '/mobile?x=1&api_key=k-query-secret-wrong' });
  await svc.app.inject({ url: '/nowhere?api%5Fkey=k-query-secret' });
  await svc.app.inject({ url: '/fails?api_key=k-query-secret', headers: { authorization: basic('admin', 's3cret-Password') } });
  const text = svc.log.lines.map((l) => JSON.stringify(l)).join('\n');
  for (const secret of ['s3cret-Password', Buffer.from('admin:s3cret-Password').toString('base64'), token, 'k-query-secret']) {
    assert.ok(!text.includes(secret), `${secret} in\n${text}`);
  }
  const urls = svc.log.requests().map((l) => l.url);
  assert.deepEqual(urls, [
    '/admin',
    '/admin',
    '/mobile?api_key=[REDACTED]&x=1',
    '/mobile?x=1&api_key=[REDACTED]',
    '/nowhere?api%5Fkey=[REDACTED]',
    '/fails?api_key=[REDACTED]',
  ]);
  assert.deepEqual(
    svc.log.requests().map((l) => l.status),
    [200, 200, 200, 401, 404, 500],
  );
});

test('redactQuery: only the named parameters, every occurrence, the fragment and other parameters kept', () => {
  const names = new Set(['key', 'api key']);
  assert.equal(redactQuery('/p?a=1&key=s&key=t&b=2#frag', names), '/p?a=1&key=[REDACTED]&key=[REDACTED]&b=2#frag');
  assert.equal(redactQuery('/p?api+key=s&keys=t', names), '/p?api+key=[REDACTED]&keys=t');
  assert.equal(redactQuery('/p?key', names), '/p?key=[REDACTED]');
  assert.equal(redactQuery('/p?other=%zz', names), '/p?other=%zz');
  assert.equal(redactQuery('/p?%zz=1&key=s', names), '/p?%zz=1&key=[REDACTED]');
});
