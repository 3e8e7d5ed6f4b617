/**
 * The bounded retry of a connection's first ping. At boot a database may still be starting (a
 * compose file starts both at once), so an unreachable dependency is tried again a few times with a
 * doubling delay; anything else (a wrong password, a missing database) fails at once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RetryPolicy } from './types.js';

/** 5 tries, waiting 0.2 + 0.4 + 0.8 + 1.6 s between them: about 3 s before giving up. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, initialDelayMs: 200, maxDelayMs: 1600 };

export interface RetryOutcome {
  readonly attempts: number;
}

/**
 * Runs `attempt` until it succeeds, `retriable(error)` is false, or the attempts are spent; rethrows
 * the last error with the number of attempts made. `onRetry` hears each failure that is retried.
 */
export async function retry(
  policy: RetryPolicy,
  attempt: () => Promise<void>,
  retriable: (error: unknown) => boolean,
  onRetry: (error: unknown, attempt: number, delayMs: number) => void,
): Promise<RetryOutcome> {
  const attempts = Math.max(1, Math.floor(policy.attempts));
  let delay = policy.initialDelayMs;
  for (let n = 1; ; n++) {
    try {
      await attempt();
      return { attempts: n };
    } catch (error) {
      if (n >= attempts || !retriable(error)) throw new RetryExhausted(error, n);
      onRetry(error, n, delay);
      await sleep(delay);
      delay = Math.min(delay * 2, policy.maxDelayMs);
    }
  }
}

/** The last failure and how many attempts led to it. */
export class RetryExhausted extends Error {
  override readonly name = 'RetryExhausted';
  constructor(
    override readonly cause: unknown,
    readonly attempts: number,
  ) {
    super('retry exhausted', { cause });
  }
}
