/**
 * src/auth: the guards of SPEC.md §5 and DECISIONS.md §4 (basic, bearer with static tokens or JWT,
 * API keys), compiled once per endpoint into one check that src/http runs before the body is read.
 * Only this area imports `jose`.
 */
export { compileEndpointGuard, type EndpointGuard, type GuardOptions, type GuardSource } from './endpoint.js';
export type { KeySetLimits } from './jwks.js';
export { Refusal, type AuthContext, type GuardInput } from './types.js';
