/**
 * What a guard reads and what it answers. A guard admits with the `AuthContext` steps see as
 * `ctx.auth`, or refuses with a `Refusal`: the status, what the client is told, and what only the
 * log learns.
 */

/** The parts of a request credentials travel in (header names lower-case, the parsed query). */
export interface GuardInput {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly query: Readonly<Record<string, unknown>> | undefined;
}

/** `ctx.auth`: the guard that admitted the request and who it admitted (DECISIONS.md §2, §4). */
export interface AuthContext {
  /** The `auth "<name>"` block. */
  readonly guard: string;
  readonly type: 'basic' | 'bearer' | 'api_key';
  /** The user name (basic), the token's `sub` (JWT), `token<n>` (static token), the key id (API key). */
  readonly principal: string | null;
  /** A JWT's claims; empty for the other guards. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/**
 * Why a request was turned away. `detail` is the client's; `reason` is the log's and may be precise
 * (an expired token, an unknown key id), never the credential itself.
 */
export class Refusal {
  constructor(
    /** 401 no guard admits; 403 a verified token lacks a required claim; 503 a key set cannot be fetched. */
    readonly status: 401 | 403 | 503,
    readonly guard: string,
    readonly reason: string,
    readonly detail: string,
    /** A credential this guard understands was sent (a wrong one, as opposed to none). */
    readonly presented: boolean,
  ) {}
}

export type GuardResult = AuthContext | Refusal;

/** One compiled guard. Synchronous unless it has to verify a JWT (Web Crypto, maybe a key-set fetch). */
export type GuardCheck = (input: GuardInput) => GuardResult | Promise<GuardResult>;

/** Claims of the guards that carry none: one frozen object, shared. */
export const NO_CLAIMS: Readonly<Record<string, unknown>> = Object.freeze({});

/** The one header value of `name`: a repeated header is ambiguous and counts as none. */
export function headerOf(input: GuardInput, name: string): string | undefined {
  const value = input.headers[name];
  return typeof value === 'string' ? value : undefined;
}
