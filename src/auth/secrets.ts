/**
 * Constant-time comparison of credentials (SPEC.md §5, DECISIONS.md §4).
 *
 * Both sides are reduced to an HMAC-SHA256 under a key drawn once per process, and the two 32-byte
 * digests are compared with `crypto.timingSafeEqual`. So the comparison always covers 32 bytes
 * whatever the lengths (a plain comparison would fail fast on a length mismatch and tell an attacker
 * the secret's length), it cannot stop at the first differing byte, and the digest of a secret an
 * attacker does not know is unpredictable to them, so timing the HMAC itself reveals nothing about
 * the stored secret. A set of secrets is always compared in full, so which one matched (or that none
 * did) does not show either.
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
