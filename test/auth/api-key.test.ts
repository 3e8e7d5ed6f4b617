/** `type = "api_key"`: a key in a header (default x-api-key, or named) or in a query parameter. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Refusal, type AuthContext } from '../../src/auth/index.js';
import type { GuardInput } from '../../src/auth/index.js';
import { guardOf, request } from './helpers.js';

const GUARDS = `
auth "default_header" {
  type = "api_key"
  keys = ["first-key", "second-key"]
}
auth "named_header" {
  type   = "api_key"
  header = "X-Partner-Key"
  keys   = { acme = "k-acme", globex = "k-globex" }
}
auth "in_query" {
  type  = "api_key"
  query = "api_key"
  keys  = { mobile = "k-mobile" }
}
`;

test('keys in the default header: ids key1, key2 for a list', () => {
  const guard = guardOf(GUARDS, ['default_header']);
  assert.deepEqual(guard.check(request({ 'x-api-key': 'second-key' })), { guard: 'default_header', type: 'api_key', principal: 'key2', claims: {} });
  assert.equal((guard.check(request({ 'x-api-key': 'first-key' })) as AuthContext).principal, 'key1');
});

test('a named header (case-insensitive name) and a map of ids', () => {
  const guard = guardOf(GUARDS, ['named_header']);
  assert.equal((guard.check(request({ 'x-partner-key': 'k-globex' })) as AuthContext).principal, 'globex');
  // The default header does not count for a guard that names another.
  assert.ok(guard.check(request({ 'x-api-key': 'k-globex' })) instanceof Refusal);
});

test('a key in the query string', () => {
  const guard = guardOf(GUARDS, ['in_query']);
  assert.equal((guard.check(request({}, { api_key: 'k-mobile' })) as AuthContext).principal, 'mobile');
  assert.ok(guard.check(request({ 'x-api-key': 'k-mobile' })) instanceof Refusal, 'a query guard reads no header');
  assert.deepEqual(guard.secretQueryParams, ['api_key']);
});

test('refusals: missing, empty, wrong, a prefix or extension of a key, repeated values', () => {
  const cases: [string, string, GuardInput, string][] = [
    ['missing', 'default_header', request(), 'no API key in the header x-api-key'],
    ['empty', 'default_header', request({ 'x-api-key': '' }), 'no API key in the header x-api-key'],
    ['wrong', 'default_header', request({ 'x-api-key': 'third-key' }), 'unknown API key'],
    ['prefix', 'named_header', request({ 'x-partner-key': 'k-acm' }), 'unknown API key'],
    ['extension', 'named_header', request({ 'x-partner-key': 'k-acme ' }), 'unknown API key'],
    ['repeated query value', 'in_query', request({}, { api_key: ['k-mobile', 'k-mobile'] }), 'no API key in the query parameter api_key'],
    ['no query', 'in_query', { headers: {}, query: undefined }, 'no API key in the query parameter api_key'],
  ];
  for (const [name, guardName, input, reason] of cases) {
    const r = guardOf(GUARDS, [guardName]).check(input);
    assert.ok(r instanceof Refusal, name);
    assert.equal(r.status, 401, name);
    assert.equal(r.reason, reason, name);
  }
});

test('an endpoint guarded by keys alone has no challenge', () => {
  assert.deepEqual(guardOf(GUARDS, ['default_header', 'in_query']).challenges, []);
});
