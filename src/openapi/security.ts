/**
 * Guards as security schemes (SPEC.md §5, DECISIONS.md §4): basic and bearer as `http` schemes,
 * api_key as an `apiKey` in its header or query parameter. An operation lists its guards as
 * alternatives (any one admits the request); a public one says so with `security: []`. Credentials
 * never reach the document.
 */
import type { AuthModel } from '../model/index.js';
import type { SecurityScheme } from './document-types.js';

export function securityScheme(auth: AuthModel): SecurityScheme {
  switch (auth.type) {
    case 'basic':
      return { type: 'http', scheme: 'basic' };
    case 'bearer':
      return auth.jwt !== undefined ? { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } : { type: 'http', scheme: 'bearer' };
    case 'api_key':
      return auth.query !== undefined ? { type: 'apiKey', name: auth.query, in: 'query' } : { type: 'apiKey', name: auth.header ?? 'x-api-key', in: 'header' };
  }
}

/** One requirement per guard: any of them admits the request. */
export function operationSecurity(guards: readonly string[]): Record<string, readonly string[]>[] {
  return guards.map((g) => ({ [g]: [] }));
}

/** A guard that can refuse a verified token for its claims (403). */
export function checksClaims(auth: AuthModel | undefined): boolean {
  return auth?.type === 'bearer' && (auth.jwt?.requiredClaims?.length ?? 0) > 0;
}

/** A guard that fetches a key set, which can be unreachable (503). */
export function fetchesKeys(auth: AuthModel | undefined): boolean {
  return auth?.type === 'bearer' && auth.jwt?.jwksUrl !== undefined;
}
