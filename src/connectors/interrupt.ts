/**
 * A caller's AbortSignal and time-out as one promise that rejects when either fires. Drivers that
 * take no AbortSignal (pg, ioredis) race their work against it, then undo what the work holds
 * (cancel the query, destroy the connection): ARCHITECTURE.md "Shapes the engine needs for I/O".
 */
import { ConnectorCategory, ConnectorError, describeCause } from './errors.js';

export interface InterruptOptions {
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
  /**
   * Another way to be interrupted, cheaper than a signal: called once with `interrupt`, which the
   * caller calls (with why) to stop the work. The engine's steps pass their `onRelease` this way, so
   * no AbortController is created per query and nothing is dispatched when a step ends normally.
   */
  readonly interruptWith?: ((interrupt: (reason: unknown) => void) => void) | undefined;
}

export interface Interrupt {
  /** Rejects with `reason` when interrupted; never resolves. */
  readonly promise: Promise<never>;
  /** The ConnectorError of the interruption, once it happened. */
  readonly reason: ConnectorError | undefined;
  /** Stops listening (clears the timer, removes the abort listener). */
  dispose(): void;
}

/**
 * Starts watching. Throws at once when the signal is already aborted, so no work starts; undefined
 * when there is nothing to watch (no race, no allocation on that path). `what` names the work in
 * messages ("query").
 */
export function watchInterrupt(options: InterruptOptions, connection: string, label: string, what: string): Interrupt | undefined {
  let reason: ConnectorError | undefined;
  let fire!: (error: ConnectorError) => void;
  const dispose = onInterrupt(options, connection, label, what, (error) => fire(error));
  if (dispose === undefined) return undefined;
  const promise = new Promise<never>((_, reject) => {
    fire = (error) => {
      reason = error;
      reject(error);
    };
  });
  // Nobody may be listening when it fires after the work settled.
  promise.catch(() => {});
  return {
    promise,
    get reason() {
      return reason;
    },
    dispose,
  };
}

/**
 * `watchInterrupt` without a promise, for work driven by callbacks (a pooled query): `fire` is called
 * at most once, with why, unless `dispose` (the answer) was called first. Throws at once when the
 * signal is already aborted; undefined when there is nothing to watch.
 */
export function onInterrupt(
  options: InterruptOptions,
  connection: string,
  label: string,
  what: string,
  fire: (error: ConnectorError) => void,
): (() => void) | undefined {
  const { signal, timeoutMs, interruptWith } = options;
  if (signal?.aborted) throw cancelled(signal.reason, connection, label, what);
  if (signal === undefined && timeoutMs === undefined && interruptWith === undefined) return undefined;
  let done = false;
  const once = (error: ConnectorError): void => {
    if (done) return;
    dispose();
    fire(error);
  };
  const onAbort = (): void => once(cancelled(signal!.reason, connection, label, what));
  signal?.addEventListener('abort', onAbort, { once: true });
  // After the work settled the step may still interrupt (it ends later): disposed, that does nothing.
  interruptWith?.((why) => once(cancelled(why, connection, label, what)));
  const timer =
    timeoutMs !== undefined && Number.isFinite(timeoutMs)
      ? setTimeout(
          () => once(new ConnectorError(`${label}: ${what} timed out after ${timeoutMs} ms`, { connection, category: ConnectorCategory.timeout })),
          Math.max(0, timeoutMs),
        )
      : undefined;
  function dispose(): void {
    done = true;
    if (timer !== undefined) clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  return dispose;
}

function cancelled(why: unknown, connection: string, label: string, what: string): ConnectorError {
  return new ConnectorError(`${label}: ${what} cancelled (${describeCause(why)})`, {
    connection,
    category: ConnectorCategory.cancelled,
    cause: why,
  });
}
