/**
 * A remote JSON Web Key Set (`jwt { jwks_url }`), fetched and cached, with rotation and a rate limit:
 * fetched on first use, again in the background past `maxAgeMs`, and at once for an unknown key id
 * (a rotation). At most one fetch per `cooldownMs`, shared by concurrent needs, so made-up key ids or a
 * down host cost it one request per cooldown. With no set at all, `KeySetUnavailable` (a 503, not a
 * 401: the credentials may be good). Not jose's `createRemoteJWKSet`: it retries on every request
 * while the host is failing.
 */
import type { JWTVerifyGetKey } from 'jose';
import { jose } from './jose.js';

export interface KeySetLimits {
  /** Least time between two fetches. Default 30 s. */
  readonly cooldownMs: number;
  /** Age after which the set is refreshed. Default 10 min. */
  readonly maxAgeMs: number;
  /** Time-out of one fetch. Default 5 s. */
  readonly timeoutMs: number;
  /** Largest key-set document accepted. Default 1 MiB. */
  readonly maxBytes: number;
}

export const DEFAULT_KEY_SET_LIMITS: KeySetLimits = { cooldownMs: 30_000, maxAgeMs: 600_000, timeoutMs: 5_000, maxBytes: 1 << 20 };

/** No key set could be fetched yet, so no token can be checked against it. */
export class KeySetUnavailable extends Error {
  override readonly name = 'KeySetUnavailable';
}

export class RemoteKeySet {
  private local: JWTVerifyGetKey | undefined;
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private triedAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<boolean> | undefined;
  private lastError: unknown;

  constructor(
    private readonly url: URL,
    private readonly limits: KeySetLimits = DEFAULT_KEY_SET_LIMITS,
  ) {}

  /** jose's key resolver: the key of the token's `kid` (and `alg`), from the cached set. */
  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    if (this.local === undefined) await this.refresh();
    else if (Date.now() - this.fetchedAt > this.limits.maxAgeMs) void this.refresh();
    const local = this.local;
    if (local === undefined) throw new KeySetUnavailable(`the key set ${this.url.href} could not be fetched: ${describe(this.lastError)}`);
    try {
      return await local(header, token);
    } catch (error) {
      // An unknown key id: the issuer may have rotated its keys since the set was fetched.
      if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY' || !(await this.refresh())) throw error;
      return this.local!(header, token);
    }
  };

  /** Fetches the set unless one was fetched within the cooldown; true when a new set was loaded. */
  private refresh(): Promise<boolean> {
    if (this.inFlight) return this.inFlight;
    if (Date.now() - this.triedAt < this.limits.cooldownMs) return Promise.resolve(false);
    this.triedAt = Date.now();
    const attempt = this.fetchSet().then(
      (set) => {
        this.local = set;
        this.fetchedAt = Date.now();
        return true;
      },
      (error: unknown) => {
        // The set in hand (if any) stays in use; the next attempt waits for the cooldown.
        this.lastError = error;
        return false;
      },
    );
    this.inFlight = attempt.finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchSet(): Promise<JWTVerifyGetKey> {
    const response = await fetch(this.url, {
      signal: AbortSignal.timeout(this.limits.timeoutMs),
      // A key set that moved is a configuration change, not something to follow silently.
      redirect: 'manual',
      headers: { accept: 'application/jwk-set+json, application/json' },
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`HTTP ${response.status}`);
    }
    const text = await readCapped(response, this.limits.maxBytes);
    const { createLocalJWKSet } = await jose();
    return createLocalJWKSet(JSON.parse(text) as Parameters<typeof createLocalJWKSet>[0]);
  }
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`the key set is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function describe(error: unknown): string {
  if (error === undefined) return 'not fetched yet';
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return message + cause;
}
