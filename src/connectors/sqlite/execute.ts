/**
 * One piece of synchronous work on a connection (a statement, a batch of a stream's rows) as a
 * promise: it waits for the connection (./lane.ts) and its turn (./turns.ts), runs, and, when it met
 * a lock another process holds, waits and goes back in line (./busy.ts). The caller's signal,
 * time-out or interrupt abandons it while it waits; a statement that started runs to its end (the
 * engine cannot be stopped mid-statement from this thread), and its answer is then dropped.
 */
import { ConnectorCategory, ConnectorError } from '../errors.js';
import { onInterrupt, type InterruptOptions } from '../interrupt.js';
import { lockedOut, pauseBefore, stillLocked } from './busy.js';
import { toConnectorError } from './errors.js';
import type { Lease } from './lane.js';
import type { SqliteConnection, SqliteResource } from './resource.js';
import type { Turn } from './turns.js';

export function closedError(resource: SqliteResource): ConnectorError {
  return new ConnectorError(`${resource.where.label} is closed`, { connection: resource.where.key, category: ConnectorCategory.unavailable });
}

export function onConnection<T>(resource: SqliteResource, conn: SqliteConnection, work: () => T, options: InterruptOptions, lease?: Lease): Promise<T> {
  if (resource.closed) return Promise.reject(closedError(resource));
  const { key, label } = resource.where;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let started = 0;
    let attempt = 0;
    let pause: NodeJS.Timeout | undefined;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      turn.cancelled = true;
      dispose?.();
      if (pause !== undefined) clearTimeout(pause);
      return true;
    };
    const turn: Turn = {
      cancelled: false,
      run() {
        if (settled) return;
        attempt++;
        if (attempt === 1) started = Date.now();
        let value: T;
        try {
          value = work();
        } catch (error) {
          if (lockedOut(error) && !resource.closed) {
            const waited = Date.now() - started;
            if (waited < resource.busyTimeoutMs) {
              // Back in line after a pause: the connection is free for others meanwhile.
              pause = setTimeout(() => {
                pause = undefined;
                if (settled) return;
                if (resource.closed) fail(closedError(resource));
                else conn.lane.submit(turn, lease);
              }, pauseBefore(attempt));
              return;
            }
            if (settle()) reject(stillLocked(error, waited, key, label));
            return;
          }
          if (settle()) reject(toConnectorError(error, key, label));
          return;
        }
        if (settle()) resolve(value);
      },
      fail,
    };
    function fail(error: Error): void {
      if (settle()) reject(error);
    }
    let dispose: (() => void) | undefined;
    try {
      dispose = onInterrupt(options, key, label, 'query', (error) => fail(error));
    } catch (error) {
      settled = true;
      reject(error);
      return;
    }
    conn.lane.submit(turn, lease);
  });
}
