/**
 * Waiting for a lock another process holds, without blocking the event loop. SQLite's own busy
 * handler sleeps on the thread (every request would stop with it), so every connection has
 * `busy_timeout = 0`: a statement that meets a lock fails at once with SQLITE_BUSY, having changed
 * nothing, and is tried again after a pause (2 ms, doubling up to 50 ms) until the connection's
 * `busy_timeout` has passed since its first try; then it fails as the database being unavailable
 * (a 503).
 */
import { ConnectorCategory, ConnectorError } from '../errors.js';
import { errcodeOf } from './errors.js';
import { isBusy } from './result-codes.js';

const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 50;

/** Whether a failure is a lock held elsewhere: worth trying again. */
export function lockedOut(error: unknown): boolean {
  const errcode = errcodeOf(error);
  return errcode !== undefined && isBusy(errcode);
}

/** The pause before try number `attempt` (1 after the first failure). */
export function pauseBefore(attempt: number): number {
  return Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (attempt - 1));
}

/** The failure once the busy time-out has passed. */
export function stillLocked(cause: unknown, waitedMs: number, key: string, label: string): ConnectorError {
  return new ConnectorError(`${label}: the database stayed locked by another connection for ${waitedMs} ms (busy_timeout)`, {
    connection: key,
    category: ConnectorCategory.unavailable,
    code: 'SQLITE_BUSY',
    codes: ['SQLITE_BUSY'],
    cause,
  });
}

/** `work` (synchronous) tried until it does not meet a lock, or the busy time-out passes. For boot-time work outside the turns. */
export async function retryWhileBusy<T>(work: () => T, busyTimeoutMs: number, key: string, label: string): Promise<T> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return work();
    } catch (error) {
      if (!lockedOut(error)) throw error;
      const waited = Date.now() - started;
      if (waited >= busyTimeoutMs) throw stillLocked(error, waited, key, label);
      await new Promise((resolve) => setTimeout(resolve, pauseBefore(attempt)));
    }
  }
}
