/**
 * `type = "api_key"`: a key in a header (default `x-api-key`) or a query parameter, compared in
 * constant time against every declared key (./secrets.ts); the principal is the key's id.
 */
import type { ApiKeyAuthModel } from '../model/index.js';
import { INVALID_DETAIL } from './basic.js';
import { SecretSet } from './secrets.js';
import { headerOf, NO_CLAIMS, Refusal, type AuthContext, type GuardCheck, type GuardInput } from './types.js';

export function apiKeyGuard(guard: ApiKeyAuthModel): GuardCheck {
  const keys = new SecretSet(guard.keys.map((k) => k.key));
  const admitted: readonly AuthContext[] = guard.keys.map((k) => Object.freeze({ guard: guard.name, type: 'api_key', principal: k.id, claims: NO_CLAIMS }));
  const where = guard.query !== undefined ? `query parameter ${guard.query}` : `header ${guard.header}`;
  const missing = new Refusal(401, guard.name, `no API key in the ${where}`, `this endpoint requires an API key in the ${where}`, false);
  const wrong = new Refusal(401, guard.name, 'unknown API key', INVALID_DETAIL, true);
  const read: (input: GuardInput) => string | undefined = guard.query !== undefined ? queryReader(guard.query) : (input) => headerOf(input, guard.header!);

  return (input) => {
    const key = read(input);
    if (key === undefined || key === '') return missing;
    const index = keys.indexOf(key);
    return index < 0 ? wrong : admitted[index]!;
  };
}

function queryReader(name: string): (input: GuardInput) => string | undefined {
  return (input) => {
    const value = input.query?.[name];
    // `?key=a&key=b` is ambiguous: refused like a missing key.
    return typeof value === 'string' ? value : undefined;
  };
}
