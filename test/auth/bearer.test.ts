/** `type = "bearer"`: static tokens and JWTs verified with a shared secret (HS256/384/512). */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Refusal, type AuthContext } from '../../src/auth/index.js';
import { serveManifest, type ServedService } from '../http/helpers.js';
import { guardOf, hsToken, now, request, SECRET, unsignedToken } from './helpers.js';

const GUARDS = `
auth "static" {
  type   = "bearer"
  tokens = ["tok-one", "tok-two"]
}
auth "jwt" {
  type = "bearer"
  jwt {
    secret   = "${SECRET}"
    issuer   = "https://issuer.test"
    audience = ["svc", "svc-2"]
  }
}
auth "strict" {
  type = "bearer"
  jwt {
    secret          = "${SECRET}"
    algorithms      = ["HS256"]
    required_claims = { role = "admin", scope = "write" }
  }
}
auth "present" {
  type = "bearer"
  jwt {
    secret          = "${SECRET}"
    required_claims = ["tenant"]
  }
}
`;

const bearer = (token: string) => request({ authorization: `Bearer ${token}` });

async function verdict(names: string[], input: ReturnType<typeof request>): Promise<AuthContext | Refusal> {
  return guardOf(GUARDS, names).check(input);
}

async function refusal(names: string[], input: ReturnType<typeof request>): Promise<Refusal> {
  const v = await verdict(names, input);
  assert.ok(v instanceof Refusal, `refused: ${JSON.stringify(v)}`);
  return v;
}

test('static tokens: each admitted (synchronously) with its ordinal as principal; others refused', async () => {
  const guard = guardOf(GUARDS, ['static']);
  const first = guard.check(bearer('tok-one'));
  assert.ok(!(first instanceof Promise), 'a static token is checked without a promise');
  assert.deepEqual(first, { guard: 'static', type: 'bearer', principal: 'token1', claims: {} });
  assert.equal((guard.check(bearer('tok-two')) as AuthContext).principal, 'token2');
  assert.equal((guard.check(request({ authorization: 'bearer   tok-two' })) as AuthContext).principal, 'token2');
  for (const [name, input, reason] of [
    ['missing', request(), 'no bearer token'],
    ['wrong scheme', request({ authorization: 'Basic tok-one' }), 'no bearer token'],
    ['scheme alone', request({ authorization: 'Bearer' }), 'malformed bearer token'],
    ['not a b64token', request({ authorization: 'Bearer tok one' }), 'malformed bearer token'],
    ['unknown', bearer('tok-three'), 'unknown bearer token'],
    ['prefix', bearer('tok-on'), 'unknown bearer token'],
  ] as const) {
    const r = guard.check(input) as Refusal;
    assert.ok(r instanceof Refusal, name);
    assert.equal(r.status, 401, name);
    assert.equal(r.reason, reason, name);
  }
});

test('a valid JWT is admitted: principal is sub, claims are the payload', async () => {
  const token = await hsToken({ sub: 'u-42', iss: 'https://issuer.test', aud: 'svc-2', exp: now() + 60, name: 'Ada' });
  const v = (await verdict(['jwt'], bearer(token))) as AuthContext;
  assert.equal(v.guard, 'jwt');
  assert.equal(v.principal, 'u-42');
  assert.equal(v.claims.name, 'Ada');
  // HS384 and HS512 are accepted by default with a secret.
  for (const alg of ['HS384', 'HS512']) {
    const t = await hsToken({ iss: 'https://issuer.test', aud: 'svc', exp: now() + 60 }, { alg });
    const w = (await verdict(['jwt'], bearer(t))) as AuthContext;
    assert.equal(w.principal, null, alg);
  }
});

test('JWT refusals: expired, not yet valid, wrong audience, wrong issuer, alg none, wrong secret, algorithm not allowed, malformed', async () => {
  const good = { iss: 'https://issuer.test', aud: 'svc', sub: 'u' };
  const cases: [string, string, string][] = [
    ['expired', await hsToken({ ...good, exp: now() - 120 }), 'token expired'],
    ['not yet valid', await hsToken({ ...good, nbf: now() + 120 }), 'token claim "nbf" is not accepted'],
    ['issued in the future', await hsToken(good, { iat: now() + 120 }), 'token claim "iat" is in the future'],
    ['issued an hour from now, valid for two', await hsToken({ ...good, exp: now() + 7200 }, { iat: now() + 3600 }), 'token claim "iat" is in the future'],
    ['wrong audience', await hsToken({ ...good, aud: 'other' }), 'token claim "aud" is not accepted'],
    ['no audience', await hsToken({ iss: good.iss }), 'token claim "aud" missing'],
    ['wrong issuer', await hsToken({ ...good, iss: 'https://evil.test' }), 'token claim "iss" is not accepted'],
    ['alg none', unsignedToken(good), 'token algorithm not accepted'],
    ['wrong secret', await hsToken(good, { secret: 'another-secret-of-at-least-32-bytes!!' }), 'token signature does not verify'],
    [
      'tampered payload',
      (await hsToken(good)).replace(/\.[^.]+\./, `.${Buffer.from(JSON.stringify({ ...good, sub: 'root' })).toString('base64url')}.`),
      'token signature does not verify',
    ],
    ['not a JWT', 'abc.def', 'malformed token'],
  ];
  for (const [name, token, reason] of cases) {
    const r = await refusal(['jwt'], bearer(token));
    assert.equal(r.status, 401, name);
    assert.equal(r.reason, reason, name);
    assert.equal(r.presented, true, name);
  }
  // `algorithms = ["HS256"]` turns HS512 away.
  const hs512 = await hsToken({ role: 'admin', scope: 'write' }, { alg: 'HS512' });
  assert.equal((await refusal(['strict'], bearer(hs512))).reason, 'token algorithm not accepted');
});

test('exp, nbf and iat allow a small clock skew (30 s)', async () => {
  const token = await hsToken({ iss: 'https://issuer.test', aud: 'svc', exp: now() - 10, nbf: now() + 10 }, { iat: now() + 10 });
  assert.ok(!((await verdict(['jwt'], bearer(token))) instanceof Refusal));
});

test('required_claims: a verified token without them is a 403; list claims and scope words count', async () => {
  const admitted = [
    { role: 'admin', scope: 'write' },
    { role: ['reader', 'admin'], scope: 'read write delete' },
  ];
  for (const claims of admitted) {
    const v = await verdict(['strict'], bearer(await hsToken(claims)));
    assert.ok(!(v instanceof Refusal), JSON.stringify(claims));
  }
  const forbidden = [{ role: 'admin' }, { role: 'user', scope: 'write' }, { role: 'admin', scope: 'writer' }, { role: 'admin', scope: ['read'] }];
  for (const claims of forbidden) {
    const r = await refusal(['strict'], bearer(await hsToken(claims)));
    assert.equal(r.status, 403, JSON.stringify(claims));
    assert.match(r.reason, /lacks the required claim/);
  }
  assert.ok(!((await verdict(['present'], bearer(await hsToken({ tenant: 0 })))) instanceof Refusal), 'present, even falsy');
  assert.equal((await refusal(['present'], bearer(await hsToken({ tenant: null })))).status, 403);
  // A token that does not verify stays a 401, required claims or not.
  assert.equal((await refusal(['strict'], bearer(await hsToken({ role: 'admin', scope: 'write', exp: now() - 100 })))).status, 401);
});

test('static tokens and a jwt block on one guard: either admits', async () => {
  const guard = guardOf(
    `auth "both" {
  type   = "bearer"
  tokens = ["static-token"]
  jwt {
    secret = "${SECRET}"
  }
}`,
    ['both'],
  );
  assert.equal((guard.check(bearer('static-token')) as AuthContext).principal, 'token1');
  assert.equal(((await guard.check(bearer(await hsToken({ sub: 's' })))) as AuthContext).principal, 's');
  assert.equal(((await guard.check(bearer('other'))) as Refusal).reason, 'malformed token');
});

// ------------------------------------------------------------------------------- over HTTP

let svc: ServedService;
before(async () => {
  svc = await serveManifest(`${GUARDS}
endpoint "GET /claims" {
  auth = [auth.strict]
  pipeline {
    respond {
      body = { sub = ctx.auth.principal, role = ctx.auth.claims.role, guard = ctx.auth.guard }
    }
  }
}
`);
});
after(() => svc.close());

test('over HTTP: 200 with ctx.auth claims, 403 forbidden problem (no challenge), 401 with the Bearer challenge', async () => {
  const ok = await svc.app.inject({ url: '/claims', headers: { authorization: `Bearer ${await hsToken({ sub: 'ada', role: 'admin', scope: 'write' })}` } });
  assert.equal(ok.statusCode, 200);
  assert.deepEqual(ok.json(), { sub: 'ada', role: 'admin', guard: 'strict' });

  const forbidden = await svc.app.inject({ url: '/claims', headers: { authorization: `Bearer ${await hsToken({ sub: 'bob', role: 'user' })}` } });
  assert.equal(forbidden.statusCode, 403);
  assert.equal(forbidden.headers['www-authenticate'], undefined);
  assert.deepEqual(forbidden.json(), {
    type: 'urn:svc:error:forbidden',
    title: 'Forbidden',
    status: 403,
    detail: 'the token does not grant access to this endpoint',
    instance: '/claims',
  });

  const expired = await svc.app.inject({
    url: '/claims',
    headers: { authorization: `Bearer ${await hsToken({ role: 'admin', scope: 'write', exp: now() - 100 })}` },
  });
  assert.equal(expired.statusCode, 401);
  assert.equal(expired.headers['www-authenticate'], 'Bearer realm="API"');
  assert.equal((expired.json() as { detail: string }).detail, 'the token has expired');
});
