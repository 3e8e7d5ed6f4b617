/**
 * The comparison path cannot short-circuit (by construction): every credential check goes through
 * `crypto.timingSafeEqual` over two 32-byte digests, whatever the presented value's length, and a set
 * of keys is compared in full whether the first, the last or none matches.
 *
 * `timingSafeEqual` is replaced by a recording wrapper on node:crypto, and the named ESM export the
 * guards bound to is synced with it (module.syncBuiltinESMExports), so the real code path is observed.
 */
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { basic, guardOf, request } from './helpers.js';

const GUARDS = `
auth "admin" {
  type     = "basic"
  username = "admin"
  password = "correct horse battery staple"
}
auth "keys" {
  type = "api_key"
  keys = ["k-0000000001", "k-0000000002", "k-0000000003", "k-0000000004"]
}
auth "tokens" {
  type   = "bearer"
  tokens = ["token-a", "token-b"]
}
`;

function recordComparisons(run: () => unknown): { a: number; b: number }[] {
  const calls: { a: number; b: number }[] = [];
  const original = crypto.timingSafeEqual;
  const spy = mock.method(crypto, 'timingSafeEqual', (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
    calls.push({ a: a.byteLength, b: b.byteLength });
    return original(a, b);
  });
  syncBuiltinESMExports();
  try {
    run();
  } finally {
    spy.mock.restore();
    syncBuiltinESMExports();
  }
  return calls;
}

test('basic: user name and password are both compared, always over 32-byte digests', () => {
  const guard = guardOf(GUARDS, ['admin']);
  const presented = [
    basic('admin', 'correct horse battery staple'),
    basic('admin', 'x'),
    basic('admin', 'Correct horse battery staple'),
    basic('admin', 'correct horse battery staplf'),
    basic('admin', 'correct horse battery staple and then some more text'),
    basic('nobody', 'correct horse battery staple'),
    basic('', ''),
  ];
  for (const authorization of presented) {
    const calls = recordComparisons(() => guard.check(request({ authorization })));
    assert.deepEqual(
      calls,
      [
        { a: 32, b: 32 },
        { a: 32, b: 32 },
      ],
      authorization,
    );
  }
});

test('api keys: every key is compared whichever matches, first byte or last byte different, or none', () => {
  const guard = guardOf(GUARDS, ['keys']);
  for (const key of ['k-0000000001', 'k-0000000004', 'x-0000000001', 'k-0000000009', 'k', 'k-00000000010000000000000000000']) {
    const calls = recordComparisons(() => guard.check(request({ 'x-api-key': key })));
    assert.deepEqual(calls, Array(4).fill({ a: 32, b: 32 }), key);
  }
});

test('static bearer tokens: the same', () => {
  const guard = guardOf(GUARDS, ['tokens']);
  for (const token of ['token-a', 'token-b', 'token-c', 't']) {
    const calls = recordComparisons(() => guard.check(request({ authorization: `Bearer ${token}` })));
    assert.deepEqual(
      calls,
      [
        { a: 32, b: 32 },
        { a: 32, b: 32 },
      ],
      token,
    );
  }
});
