/** Waiting for the write connection's lease (./lane.ts), abandoned by the caller's signal, time-out or interrupt. */
import { onInterrupt, type InterruptOptions } from '../interrupt.js';
import { closedError } from './execute.js';
import type { Lease } from './lane.js';
import type { SqliteConnection, SqliteResource } from './resource.js';

export function takeLease(resource: SqliteResource, conn: SqliteConnection, options: InterruptOptions): Promise<Lease> {
  if (resource.closed) return Promise.reject(closedError(resource));
  const { key, label } = resource.where;
  return new Promise<Lease>((resolve, reject) => {
    let dispose: (() => void) | undefined;
    const request = {
      cancelled: false,
      grant(lease: Lease) {
        if (request.cancelled) {
          lease.release();
          return;
        }
        request.cancelled = true;
        dispose?.();
        resolve(lease);
      },
      fail(error: Error) {
        if (request.cancelled) return;
        request.cancelled = true;
        dispose?.();
        reject(error);
      },
    };
    try {
      dispose = onInterrupt(options, key, label, 'wait for the write connection', (error) => request.fail(error));
    } catch (error) {
      reject(error);
      return;
    }
    conn.lane.acquire(request);
  });
}
