/**
 * The stream edge (ARCHITECTURE.md "Shapes the engine needs for I/O"): what a sink hands on is
 * *pulled*, item by item, by whoever writes it out. A plain Observable is push-only: nothing could
 * pause a database cursor while the client's socket is full. An (async) iterable is read on demand,
 * so the consumer's pace is the source's pace; RxJS stays the composition language inside the graph.
 */

/**
 * A sequence a `stream` sink reads on demand: an array (a computed list), or an async iterable such
 * as a database cursor, a subscription with a bounded buffer, or an upstream body. Leaving the
 * iteration early (`return()`) tells the source to stop; what the source holds is released by the
 * step that opened it, when the run's life ends (StreamOutcome.dispose).
 */
export type PulledSource<T = unknown> = AsyncIterable<T> | Iterable<T>;

/** Optional marks a source may carry for its consumer. */
export interface SourceTraits {
  /**
   * Items come when something else publishes them (a subscription), possibly never: the consumer
   * starts the response at once instead of after the first item. A live source's `return()` settles
   * a pull that is still waiting (with `done`), so a consumer that stops is never left hanging.
   */
  readonly live?: boolean;
  /**
   * A live source can fail while nobody pulls (a consumer stuck behind a full socket overflows its
   * buffer): the consumer registers here to hear of it at once, then pulls to receive the error.
   */
  onFailure?(listener: () => void): void;
  /**
   * A live source may hand items to its consumer as they come, without a pull (a promise) per item.
   * `push(consumer)` returns false when there is something to pull first (kept items, a failure,
   * the end); otherwise it calls `consumer.take(item)` synchronously for each item from then on,
   * until `take` returns false (the item was taken, but no more for now: the consumer's socket is
   * full) or the source ends, when it calls `consumer.end()`. Either way it keeps items for pulls
   * again, as before the call.
   */
  push?(consumer: PushConsumer): boolean;
  /**
   * Each item is handed over: nobody else holds it or the buffer it is a view of, and items of one
   * buffer come one after the other, so the consumer may free a buffer's memory as soon as it is
   * done with all of its items instead of leaving it to the garbage collector (bytes read from a
   * socket: each read one buffer).
   */
  readonly handsOverItems?: boolean;
  /**
   * A live source keeps what its consumer has not taken yet: `limitBacklog` bounds that in bytes.
   * `held()` is what the consumer itself still holds of the items it took (a response's unsent
   * bytes); when a new item would bring the two past `maxBytes`, the source fails with
   * SourceOverflowError as when its message count overflows. An item larger than `maxBytes` still
   * goes to a consumer that holds nothing.
   */
  limitBacklog?(maxBytes: number, held: () => number): void;
  /**
   * The next item when it is already at hand (a cursor's fetched batch), without a promise; undefined
   * when it must be waited for (then `next()`). Never `done`: the end is learnt from `next()`.
   */
  pullNow?(): IteratorYieldResult<unknown> | undefined;
}

/** Whoever takes a live source's items as they come (SourceTraits.push). */
export interface PushConsumer {
  take(item: unknown): boolean;
  end(): void;
}

/** How a stream's consumption ended: every item delivered, the source failed, or the consumer stopped. */
export type StreamEnd = 'complete' | 'error' | 'cancel';

export function isPulledSource(value: unknown): value is PulledSource {
  if (value === null || typeof value !== 'object') return false;
  return Symbol.asyncIterator in value || Symbol.iterator in value;
}

export function isLiveSource(value: unknown): boolean {
  return value !== null && typeof value === 'object' && (value as SourceTraits).live === true;
}

export function handsOverItems(value: unknown): boolean {
  return value !== null && typeof value === 'object' && (value as SourceTraits).handsOverItems === true;
}

/**
 * Thrown by a live source whose consumer fell further behind than its buffer allows: the consumer
 * is disconnected (and the reason logged) rather than memory growing without bound.
 */
export class SourceOverflowError extends Error {
  override readonly name = 'SourceOverflowError';
}

/**
 * Thrown by a live source that lost its upstream (a Redis subscriber connection dropped): items
 * published meanwhile were missed, and no more come on this source. The consumer ends its stream in
 * a way that makes the client reconnect (and so subscribe afresh), never as a quiet success.
 */
export class SourceLostError extends Error {
  override readonly name = 'SourceLostError';
}
