/**
 * JWT verification for `bearer` guards with a `jwt { }` block, with jose: the signature (HS256/384/512
 * secret or a remote key set, ./jwks.ts), `exp`/`nbf` with a small clock tolerance, `iss` and `aud`
 * when declared, then `required_claims` (missing: a 403, the caller is known but not allowed).
 * An `iat` in the future is refused like an early `nbf`: jose checks `iat` only against a
 * `maxTokenAge`, and no honest issuer stamps a time it has not reached. The algorithm lists for a
 * secret and a key set never overlap: `alg: none`, and HMAC over a public key, are refused.
 */
import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import { jose } from './jose.js';
import type { JwtConfig } from '../model/index.js';
import { INVALID_DETAIL } from './basic.js';
import { DEFAULT_KEY_SET_LIMITS, KeySetUnavailable, RemoteKeySet, type KeySetLimits } from './jwks.js';
import { Refusal, type AuthContext, type GuardResult } from './types.js';

const SECRET_ALGORITHMS = ['HS256', 'HS384', 'HS512'];
const KEY_SET_ALGORITHMS = ['RS256', 'ES256', 'EdDSA', 'Ed25519'];

/** Seconds of clock skew allowed between the issuer and this server on `exp`, `nbf` and `iat`. */
export const CLOCK_TOLERANCE_S = 30;

export type JwtVerifier = (token: string) => Promise<GuardResult>;

export function jwtVerifier(guard: string, config: JwtConfig, limits: KeySetLimits = DEFAULT_KEY_SET_LIMITS): JwtVerifier {
  const key: Uint8Array | JWTVerifyGetKey =
    config.secret !== undefined ? new TextEncoder().encode(config.secret) : new RemoteKeySet(new URL(config.jwksUrl!), limits).getKey;
  const options = {
    algorithms: [...(config.algorithms ?? (config.secret !== undefined ? SECRET_ALGORITHMS : KEY_SET_ALGORITHMS))],
    clockTolerance: CLOCK_TOLERANCE_S,
    ...(config.issuer !== undefined ? { issuer: config.issuer } : {}),
    ...(config.audience !== undefined ? { audience: [...config.audience] } : {}),
  };
  const required = config.requiredClaims ?? [];
  const refuse = (reason: string, detail = INVALID_DETAIL): Refusal => new Refusal(401, guard, reason, detail, true);

  return async (token) => {
    const { errors, jwtVerify } = await jose();
    let payload: JWTPayload;
    try {
      // Two overloads (key or resolver): the union is resolved per branch.
      ({ payload } = typeof key === 'function' ? await jwtVerify(token, key, options) : await jwtVerify(token, key, options));
    } catch (error) {
      if (error instanceof KeySetUnavailable) return new Refusal(503, guard, error.message, 'the keys that sign tokens could not be fetched', true);
      if (error instanceof errors.JWTExpired) return refuse('token expired', 'the token has expired');
      if (error instanceof errors.JWTClaimValidationFailed)
        return refuse(`token claim "${error.claim}" ${error.reason === 'check_failed' ? 'is not accepted' : error.reason}`);
      if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) return refuse('token algorithm not accepted');
      if (error instanceof errors.JWSSignatureVerificationFailed) return refuse('token signature does not verify');
      if (error instanceof errors.JWKSNoMatchingKey) return refuse('no key of the key set matches the token');
      if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return refuse('malformed token');
      return refuse(`token refused (${(error as { code?: string }).code ?? 'error'})`);
    }
    // jose has checked that `iat`, when present, is a number.
    if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + CLOCK_TOLERANCE_S) return refuse('token claim "iat" is in the future');
    for (const claim of required) {
      if (!holds(payload[claim.name], claim.value, claim.name)) {
        return new Refusal(403, guard, `token lacks the required claim "${claim.name}"`, 'the token does not grant access to this endpoint', true);
      }
    }
    const admitted: AuthContext = { guard, type: 'bearer', principal: typeof payload.sub === 'string' ? payload.sub : null, claims: payload };
    return admitted;
  };
}

/**
 * A required claim is present (no value declared), equal to the value, one of a list claim's items,
 * or, for `scope`, one of its space-separated words (RFC 8693 §4.2).
 */
function holds(actual: unknown, wanted: string | number | boolean | undefined, name: string): boolean {
  if (actual === undefined || actual === null) return false;
  if (wanted === undefined) return true;
  if (actual === wanted) return true;
  if (Array.isArray(actual)) return actual.includes(wanted);
  return name === 'scope' && typeof actual === 'string' && typeof wanted === 'string' && actual.split(' ').includes(wanted);
}
