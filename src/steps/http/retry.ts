/**
 * `retry { attempts, backoff }` of an `http` step: a failed exchange (refused, reset, timed out) or a
 * 429/502/503/504 is sent again, up to `attempts` in all, after a full-jitter exponential backoff
 * (at most 30 s; clients that failed together do not come back together); `timeout` bounds each
 * attempt, a cancelled run stops at once. Meant for `after_response` and idempotent calls: a POST
 * that reached the receiver before the connection dropped is sent twice.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface RetrySpec {
  /** Attempts in all, the first included: 2 to 10. */
  readonly attempts: number;
  /** The wait before the second attempt, in ms; doubled before each next one. */
  readonly backoffMs: number;
}

/** Answers worth another attempt: the receiver said "later" or a gateway in front of it failed. */
const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
const MAX_WAIT_MS = 30_000;

/** No answer within `timeout` in one attempt (classified as a time-out, a 504 when it is the last). */
export class AttemptTimeoutError extends Error {
  override readonly name = 'AttemptTimeoutError';
}

export async function withRetry<T extends { readonly status: number }>(
  retry: RetrySpec,
  timeoutMs: number,
  signal: AbortSignal,
  send: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= retry.attempts;
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const answer = await send(AbortSignal.any([signal, deadline]));
      if (last || !RETRY_STATUSES.has(answer.status)) return answer;
    } catch (error) {
      if (signal.aborted) throw error;
      const failure = deadline.aborted ? new AttemptTimeoutError(`no answer within ${timeoutMs} ms (attempt ${attempt} of ${retry.attempts})`) : error;
      if (last) throw failure;
    }
    const ceiling = Math.min(MAX_WAIT_MS, retry.backoffMs * 2 ** (attempt - 1));
    await sleep(Math.random() * ceiling, undefined, { signal });
  }
}
