/** `type = "basic"` (RFC 7617) through the HTTP adapter: who is admitted, what a refusal looks like. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveManifest, type ServedService } from '../http/helpers.js';
import { basic } from './helpers.js';

let svc: ServedService;

before(async () => {
  process.env.SVC_AUTH_TEST_PASSWORD = 'pa:ss wörd';
  svc = await serveManifest(`
openapi {
  title = "Admin \\"API\\""
}
auth "admin" {
  type     = "basic"
  username = "élodie"
  password = env("SVC_AUTH_TEST_PASSWORD")
}
endpoint "GET /admin" {
  auth = [auth.admin]
  pipeline {
    respond {
      body = ctx.auth
    }
  }
}
`);
});
after(() => svc.close());

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

test('the right user name and password (UTF-8, a password with ":" and a space, from env()) are admitted; ctx.auth says who', async () => {
  for (const authorization of [basic('élodie', 'pa:ss wörd'), `basic ${b64('élodie:pa:ss wörd')}`, `BASIC   ${b64('élodie:pa:ss wörd')}`]) {
    const r = await svc.app.inject({ url: '/admin', headers: { authorization } });
    assert.equal(r.statusCode, 200, authorization);
    assert.deepEqual(r.json(), { guard: 'admin', type: 'basic', principal: 'élodie', claims: {} });
  }
});

test('refusals: 401 unauthorized problem with the Basic challenge', async () => {
  const cases: [string, Record<string, string>][] = [
    ['missing header', {}],
    ['empty header', { authorization: '' }],
    ['wrong scheme', { authorization: `Bearer ${b64('élodie:pa:ss wörd')}` }],
    ['scheme alone', { authorization: 'Basic' }],
    ['malformed base64', { authorization: 'Basic ZWxvZGll*OnBhc3M=' }],
    ['base64 without its padding', { authorization: `Basic ${b64('élodie:pa:ss wörd').replace(/=+$/, '')}` }],
    ['no colon', { authorization: `Basic ${b64('élodie')}` }],
    ['not UTF-8', { authorization: `Basic ${Buffer.from([0xc3, 0x28, 0x3a, 0x70]).toString('base64')}` }],
    ['wrong password', { authorization: basic('élodie', 'pa:ss word') }],
    ['password prefix', { authorization: basic('élodie', 'pa') }],
    ['password with more', { authorization: basic('élodie', 'pa:ss wörd!') }],
    ['wrong user name', { authorization: basic('elodie', 'pa:ss wörd') }],
    ['empty credentials', { authorization: basic('', '') }],
  ];
  for (const [name, headers] of cases) {
    const r = await svc.app.inject({ url: '/admin', headers });
    assert.equal(r.statusCode, 401, name);
    assert.equal(r.headers['www-authenticate'], 'Basic realm="Admin \\"API\\"", charset="UTF-8"', name);
    assert.match(String(r.headers['content-type']), /^application\/problem\+json/, name);
    const body = r.json() as Record<string, unknown>;
    assert.equal(body.type, 'urn:svc:error:unauthorized', name);
    assert.equal(body.title, 'Unauthorized', name);
    assert.equal(body.status, 401, name);
    assert.equal(body.instance, '/admin', name);
  }
});

test('a missing credential and a wrong one are told apart for the client, never which part was wrong', async () => {
  const missing = (await svc.app.inject({ url: '/admin' })).json() as { detail: string };
  const wrongUser = (await svc.app.inject({ url: '/admin', headers: { authorization: basic('x', 'pa:ss wörd') } })).json() as { detail: string };
  const wrongPassword = (await svc.app.inject({ url: '/admin', headers: { authorization: basic('élodie', 'x') } })).json() as { detail: string };
  assert.equal(missing.detail, 'this endpoint requires credentials');
  assert.equal(wrongUser.detail, 'the credentials are not valid');
  assert.equal(wrongPassword.detail, wrongUser.detail);
});
