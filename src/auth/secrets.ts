/**
 * Constant-time comparison of credentials (SPEC.md §5, DECISIONS.md §4): both sides HMAC-SHA256'd
 * under a per-process key and compared with `crypto.timingSafeEqual`, so the time shows neither the
 * secret's length nor the first differing byte, and timing the HMAC reveals nothing of an unknown
 * secret. A set of secrets is compared in full: which one matched does not show either.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY = randomBytes(32);

function digest(value: string): Buffer {
  return createHmac('sha256', KEY).update(value, 'utf8').digest();
}

/** Secrets known at boot, digested once. */
export class SecretSet {
  private readonly digests: readonly Buffer[];

  constructor(secrets: readonly string[]) {
    this.digests = secrets.map(digest);
  }

  /** The index of the secret equal to `presented`, or -1; every stored secret is compared. */
  indexOf(presented: string): number {
    const candidate = digest(presented);
    let found = -1;
    for (let i = 0; i < this.digests.length; i++) {
      // No early exit: the loop runs over every secret whatever matches.
      const equal = timingSafeEqual(candidate, this.digests[i]!);
      found = equal ? i : found;
    }
    return found;
  }

  has(presented: string): boolean {
    return this.indexOf(presented) >= 0;
  }
}
