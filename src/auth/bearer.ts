/**
 * `type = "bearer"` (RFC 6750): `Authorization: Bearer <token>`. A static token (`tokens = [...]`,
 * constant time, principal `token<n>`) is checked first and synchronously; a token that is none of
 * them goes to the `jwt { }` verifier when there is one.
 */
import type { BearerAuthModel } from '../model/index.js';
import { INVALID_DETAIL, MISSING_DETAIL } from './basic.js';
import { jwtVerifier } from './jwt.js';
import type { KeySetLimits } from './jwks.js';
import { credentialsOf } from './schemes.js';
import { SecretSet } from './secrets.js';
import { NO_CLAIMS, Refusal, type AuthContext, type GuardCheck } from './types.js';

export function bearerGuard(guard: BearerAuthModel, limits?: KeySetLimits): GuardCheck {
  const tokens = new SecretSet(guard.tokens);
  const admitted: readonly AuthContext[] = guard.tokens.map((_, i) =>
    Object.freeze({ guard: guard.name, type: 'bearer', principal: `token${i + 1}`, claims: NO_CLAIMS }),
  );
  const verify = guard.jwt ? jwtVerifier(guard.name, guard.jwt, limits) : undefined;
  const missing = new Refusal(401, guard.name, 'no bearer token', MISSING_DETAIL, false);
  const malformed = new Refusal(401, guard.name, 'malformed bearer token', INVALID_DETAIL, true);
  const wrong = new Refusal(401, guard.name, 'unknown bearer token', INVALID_DETAIL, true);

  return (input) => {
    const credentials = credentialsOf(input, 'bearer');
    if (credentials.kind === 'none' || credentials.kind === 'other') return missing;
    if (credentials.kind === 'malformed') return malformed;
    const index = admitted.length > 0 ? tokens.indexOf(credentials.value) : -1;
    if (index >= 0) return admitted[index]!;
    return verify ? verify(credentials.value) : wrong;
  };
}
