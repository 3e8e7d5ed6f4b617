/**
 * JWTs verified against a key set served by a local JWKS host on loopback: RS256, ES256, EdDSA;
 * algorithm confusion refused; rotation on an unknown key id; refetches rate limited, so a flood of
 * bad tokens or a failing host costs the host one request per cooldown.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { SignJWT } from 'jose';
import { Refusal, type AuthContext, type EndpointGuard, type KeySetLimits } from '../../src/auth/index.js';
import { serveManifest } from '../http/helpers.js';
import { guardOf, JwksServer, request, signingKey, signWith, type SigningKey } from './helpers.js';

const host = new JwksServer();
let url: string;
let rsa: SigningKey;
let ec: SigningKey;
let ed: SigningKey;

before(async () => {
  url = await host.start();
  [rsa, ec, ed] = await Promise.all([signingKey('rsa-1', 'RS256'), signingKey('ec-1', 'ES256'), signingKey('ed-1', 'EdDSA')]);
});
after(() => host.stop());

const bearer = (token: string) => request({ authorization: `Bearer ${token}` });
/** No test here is about the fetch's time-out: a generous one, since a loaded machine can take seconds over a fetch. */
const SHORT: KeySetLimits = { cooldownMs: 150, maxAgeMs: 60_000, timeoutMs: 30_000, maxBytes: 1 << 20 };

/** Polls `check` until it holds or `ms` pass; answers its last value. */
async function eventually<T>(check: () => T, ok: (value: T) => boolean, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (ok(value) || Date.now() > deadline) return value;
    await sleep(20);
  }
}

function jwksGuard(limits: KeySetLimits = SHORT, extra = ''): EndpointGuard {
  return guardOf(
    `auth "sso" {
  type = "bearer"
  jwt {
    jwks_url = "${url}"
    issuer   = "https://sso.test"
    ${extra}
  }
}`,
    ['sso'],
    { keySetLimits: limits },
  );
}

async function check(guard: EndpointGuard, token: string): Promise<AuthContext | Refusal> {
  return guard.check(bearer(token));
}

test('RS256, ES256 and EdDSA tokens verify against the key set, which is fetched once', async () => {
  host.keys = [rsa.jwk, ec.jwk, ed.jwk];
  host.hits = 0;
  const guard = jwksGuard();
  for (const key of [rsa, ec, ed]) {
    const v = await check(guard, await signWith(key, { sub: key.kid, iss: 'https://sso.test' }));
    assert.ok(!(v instanceof Refusal), `${key.alg}: ${(v as Refusal).reason}`);
    assert.equal(v.principal, key.kid);
  }
  assert.equal(host.hits, 1);
});

test('algorithm confusion: an HS256 token whose secret is the public key is refused, and so is alg none', async () => {
  host.keys = [rsa.jwk];
  const guard = jwksGuard();
  const publicJwkText = JSON.stringify(rsa.jwk);
  const forged = await new SignJWT({ sub: 'root', iss: 'https://sso.test' })
    .setProtectedHeader({ alg: 'HS256', kid: rsa.kid })
    .sign(new TextEncoder().encode(publicJwkText));
  const r = await check(guard, forged);
  assert.ok(r instanceof Refusal);
  assert.equal(r.status, 401);
  assert.equal(r.reason, 'token algorithm not accepted');
  const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid: rsa.kid })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'root' })).toString('base64url')}.`;
  assert.equal(((await check(guard, none)) as Refusal).reason, 'token algorithm not accepted');
});

test('a token signed by a key the set does not hold is refused (unknown key)', async () => {
  host.keys = [rsa.jwk];
  const stranger = await signingKey('rsa-1', 'RS256'); // same kid, another key
  const guard = jwksGuard();
  assert.equal(((await check(guard, await signWith(stranger, { iss: 'https://sso.test' }))) as Refusal).reason, 'token signature does not verify');
  const unknown = await signingKey('rsa-x', 'RS256');
  assert.equal(((await check(guard, await signWith(unknown, { iss: 'https://sso.test' }))) as Refusal).reason, 'no key of the key set matches the token');
});

test('rotation: a token with a new key id makes the set be fetched again, once the cooldown has passed', async () => {
  host.keys = [rsa.jwk];
  host.hits = 0;
  const guard = jwksGuard();
  assert.ok(!((await check(guard, await signWith(rsa, { iss: 'https://sso.test' }))) instanceof Refusal));
  assert.equal(host.hits, 1);

  // The issuer rotates to a new key and drops the old one.
  const next = await signingKey('rsa-2', 'RS256');
  host.keys = [next.jwk];
  await sleep(SHORT.cooldownMs + 50);
  const v = await check(guard, await signWith(next, { sub: 'after-rotation', iss: 'https://sso.test' }));
  assert.ok(!(v instanceof Refusal), (v as Refusal).reason);
  assert.equal(v.principal, 'after-rotation');
  assert.equal(host.hits, 2);
  // The old key is gone from the set now.
  assert.ok((await check(guard, await signWith(rsa, { iss: 'https://sso.test' }))) instanceof Refusal);
});

test('a flood of tokens with made-up key ids costs the key host one fetch per cooldown', async () => {
  host.keys = [rsa.jwk];
  host.hits = 0;
  const guard = jwksGuard({ ...SHORT, cooldownMs: 60_000 });
  assert.ok(!((await check(guard, await signWith(rsa, { iss: 'https://sso.test' }))) instanceof Refusal));
  const fake = await signingKey('whatever', 'RS256');
  const tokens = await Promise.all(Array.from({ length: 50 }, (_, i) => signWith(fake, { iss: 'https://sso.test' }, { kid: `made-up-${i}` })));
  const results = await Promise.all(tokens.map((t) => check(guard, t)));
  assert.ok(results.every((r) => r instanceof Refusal && r.status === 401));
  assert.equal(host.hits, 1, 'no refetch within the cooldown');
});

test('concurrent first requests share one fetch', async () => {
  host.keys = [rsa.jwk];
  host.hits = 0;
  const guard = jwksGuard();
  const token = await signWith(rsa, { iss: 'https://sso.test' });
  const results = await Promise.all(Array.from({ length: 20 }, () => check(guard, token)));
  assert.ok(results.every((r) => !(r instanceof Refusal)));
  assert.equal(host.hits, 1);
});

test('a failing key host: 503 (not 401), retried at most once per cooldown; served again once it recovers', async () => {
  host.keys = [rsa.jwk];
  host.hits = 0;
  host.failWith = 500;
  try {
    // Long enough that the 20 checks below land within it however slow the machine is; the wait
    // for it to pass is the price.
    const limits = { ...SHORT, cooldownMs: 2000 };
    const guard = jwksGuard(limits);
    const token = await signWith(rsa, { iss: 'https://sso.test' });
    const first = (await check(guard, token)) as Refusal;
    assert.equal(first.status, 503);
    assert.match(first.reason, /could not be fetched: HTTP 500/);
    const again = await Promise.all(Array.from({ length: 20 }, () => check(guard, token)));
    assert.ok(again.every((r) => r instanceof Refusal && r.status === 503));
    assert.equal(host.hits, 1, 'no retry within the cooldown');
    host.failWith = undefined;
    await sleep(limits.cooldownMs + 50);
    assert.ok(!((await check(guard, token)) instanceof Refusal));
    assert.equal(host.hits, 2);
  } finally {
    host.failWith = undefined;
  }
});

test('a stale set is refreshed in the background: the request goes on with the keys in hand', async () => {
  host.keys = [rsa.jwk];
  host.hits = 0;
  const guard = jwksGuard({ ...SHORT, maxAgeMs: 100, cooldownMs: 50 });
  const token = await signWith(rsa, { iss: 'https://sso.test' });
  assert.ok(!((await check(guard, token)) instanceof Refusal));
  await sleep(150);
  host.failWith = 500;
  try {
    // The refresh fails, the cached keys still verify.
    assert.ok(!((await check(guard, token)) instanceof Refusal));
    // The refresh is not awaited by the request: it reaches the host when it does.
    assert.equal(
      await eventually(
        () => host.hits,
        (hits) => hits >= 2,
      ),
      2,
    );
  } finally {
    host.failWith = undefined;
  }
});

test('over HTTP: a 503 dependency-unavailable problem when the key set cannot be fetched', async () => {
  const svc = await serveManifest(`
auth "sso" {
  type = "bearer"
  jwt {
    jwks_url = "http://127.0.0.1:9/unreachable"
  }
}
endpoint "GET /me" {
  auth = [auth.sso]
  pipeline {
    respond {
      body = ctx.auth.principal
    }
  }
}
`);
  try {
    const r = await svc.app.inject({ url: '/me', headers: { authorization: `Bearer ${await signWith(rsa, { sub: 'x' })}` } });
    assert.equal(r.statusCode, 503);
    assert.equal((r.json() as { type: string }).type, 'urn:svc:error:dependency-unavailable');
    assert.equal(r.headers['www-authenticate'], undefined);
  } finally {
    await svc.close();
  }
});
