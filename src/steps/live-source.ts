/**
 * One consumer's view of a live feed (a Redis SUBSCRIBE channel, SPEC.md §6.2; an XREAD stream key; a
 * PostgreSQL LISTEN channel): the `stream` output of those steps, a *live* pulled source
 * (graph/stream.ts) whose response starts at once, since the first message may never come. Messages
 * are decoded once per feed (./live-feed.ts) and handed to each consumer's own buffer.
 *
 * The backlog is bounded in messages (`LIVE_BUFFER_LIMIT`) and in bytes (`limitBacklog`: the kept
 * messages plus the response's unsent bytes), so a slow client holds about the bound whatever the
 * message sizes. Past either, that consumer alone is cut off (SourceOverflowError); a lost
 * subscription ends every consumer after the messages already received (SourceLostError, so clients
 * reconnect). The channel is left exactly once: at `return()`, overflow, loss or `ctx.onRelease`.
 * A consumer that can write at once has messages pushed (`push`) until its socket is full (bench/sse
 * "Live messages pushed, not pulled").
 */
import { SourceLostError, SourceOverflowError, type PushConsumer, type SourceTraits } from '../../graph/index.js';

/**
 * Messages a consumer may be behind before it is cut off. At the message sizes of a notification
 * feed (under 1 KiB) that is under 1 MiB per client, and a burst of a thousand messages is far more
 * than a live client lags behind; a client that far behind is better reconnected than fed stale data.
 */
export const LIVE_BUFFER_LIMIT = 1000;

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

interface Waiter {
  resolve(result: IteratorResult<unknown>): void;
  reject(error: unknown): void;
}

export class LiveChannelSource implements AsyncIterableIterator<unknown>, SourceTraits {
  readonly live = true;
  readonly #limit: number;
  /** Names the step in the overflow's reason (it is logged). */
  readonly #label: string;
  /** Leaves the channel; called once. */
  readonly #leave: (source: LiveChannelSource) => void;
  #buffer: unknown[] = [];
  /** The byte size of each buffered message, in the same order. */
  #sizes: number[] = [];
  #bufferedBytes = 0;
  /** The byte bound (limitBacklog) and what the consumer holds besides the buffer. */
  #maxBytes = Number.POSITIVE_INFINITY;
  #heldByConsumer: () => number = () => 0;
  /** Pulls waiting for a message (a for-await loop has at most one). */
  #waiters: Waiter[] = [];
  #failure: SourceOverflowError | SourceLostError | undefined;
  /** The consumer's ear for a failure while it does not pull (SourceTraits.onFailure). */
  #onFailure: (() => void) | undefined;
  /** The consumer taking messages as they come (SourceTraits.push), when it is. */
  #pushTo: PushConsumer | undefined;
  #released = false;
  #iterated = false;

  constructor(label: string, leave: (source: LiveChannelSource) => void, limit = LIVE_BUFFER_LIMIT) {
    this.#label = label;
    this.#leave = leave;
    this.#limit = limit;
  }

  /** Messages waiting to be pulled. */
  get buffered(): number {
    return this.#buffer.length;
  }

  /** The byte size of the messages waiting to be pulled. */
  get bufferedBytes(): number {
    return this.#bufferedBytes;
  }

  /** True once the channel was left (returned, overflowed, lost or released). */
  get released(): boolean {
    return this.#released;
  }

  /** A decoded message of the channel, from the shared listener; `bytes`: its published text's size. */
  deliver(message: unknown, bytes = 0): void {
    if (this.#released) return;
    // Checked before the message is taken or kept, pushed or not: a consumer whose socket took the
    // previous messages without draining them is as far behind as one whose buffer holds them.
    const held = this.#bufferedBytes + this.#heldByConsumer();
    if (held > 0 && held + bytes > this.#maxBytes)
      return this.#overflow(`its backlog would reach ${held + bytes} bytes, over the stream's max_backlog of ${this.#maxBytes}`);
    const consumer = this.#pushTo;
    if (consumer !== undefined) {
      if (!consumer.take(message)) this.#pushTo = undefined;
      return;
    }
    const waiter = this.#waiters.shift();
    if (waiter !== undefined) waiter.resolve({ done: false, value: message });
    else if (this.#buffer.length < this.#limit) {
      this.#buffer.push(message);
      this.#sizes.push(bytes);
      this.#bufferedBytes += bytes;
    } else this.#overflow(`it fell more than ${this.#limit} messages behind the channel`);
  }

  /** Bounds the backlog in bytes (SourceTraits.limitBacklog): the stream's `max_backlog`. */
  limitBacklog(maxBytes: number, held: () => number): void {
    this.#maxBytes = maxBytes;
    this.#heldByConsumer = held;
  }

  /**
   * The subscription was lost (src/steps/live-feed.ts): no more messages come. What was received is still
   * handed out; then the next pull fails with SourceLostError.
   */
  lose(reason: string): void {
    if (this.#released) return;
    this.#released = true;
    const failure = new SourceLostError(`${this.#label}: ${reason}`);
    this.#leave(this);
    const waiters = this.#waiters.splice(0);
    // A waiting pull means nothing is buffered: it receives the failure now.
    if (waiters.length > 0) for (const waiter of waiters) waiter.reject(failure);
    else this.#failure = failure;
    const consumer = this.#pushTo;
    this.#pushTo = undefined;
    consumer?.end();
    this.#onFailure?.();
  }

  /** One pass only: the messages are handed out as they are pulled. */
  [Symbol.asyncIterator](): this {
    if (this.#iterated) throw new Error(`${this.#label}: a subscription's stream can be read only once`);
    this.#iterated = true;
    return this;
  }

  next(): Promise<IteratorResult<unknown>> {
    if (this.#buffer.length > 0) {
      this.#bufferedBytes -= this.#sizes.shift()!;
      return Promise.resolve({ done: false, value: this.#buffer.shift() });
    }
    const failure = this.#failure;
    if (failure !== undefined) {
      this.#failure = undefined;
      return Promise.reject(failure);
    }
    if (this.#released) return Promise.resolve(DONE);
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  onFailure(listener: () => void): void {
    this.#onFailure = listener;
  }

  /** Messages go to `consumer` as they come, once nothing waits to be pulled (SourceTraits.push). */
  push(consumer: PushConsumer): boolean {
    if (this.#buffer.length > 0 || this.#failure !== undefined || this.#released || this.#waiters.length > 0) return false;
    this.#pushTo = consumer;
    return true;
  }

  /** The consumer stopped: the channel is left. */
  async return(): Promise<IteratorResult<unknown>> {
    this.release();
    return DONE;
  }

  /** Leaves the channel (idempotent); a pull waiting for a message ends the iteration. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#buffer = [];
    this.#sizes = [];
    this.#bufferedBytes = 0;
    this.#leave(this);
    for (const waiter of this.#waiters.splice(0)) waiter.resolve(DONE);
    const consumer = this.#pushTo;
    this.#pushTo = undefined;
    consumer?.end();
  }

  /**
   * Cuts the consumer off. A pull may be waiting when the bytes its socket still holds are the
   * excess: it receives the failure; otherwise the next pull does.
   */
  #overflow(why: string): void {
    const failure = new SourceOverflowError(`${this.#label}: the client was cut off: ${why}`);
    const waiters = this.#waiters.splice(0);
    if (waiters.length === 0) this.#failure = failure;
    this.release();
    for (const waiter of waiters) waiter.reject(failure);
    // The consumer is typically waiting for its socket to drain, not pulling: tell it now.
    this.#onFailure?.();
  }
}
