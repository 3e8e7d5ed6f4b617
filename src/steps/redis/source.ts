/**
 * SUBSCRIBE's output `stream` (SPEC.md §6.2): one consumer's view of a channel, as a *live* pulled
 * source (graph/stream.ts): the HTTP edge pulls a message whenever the client's socket can take
 * one, and starts the response at once (`live`) rather than after the first message, which may
 * never come. Messages are decoded once for every consumer of the channel (./fanout.ts) and handed
 * to each consumer's own buffer.
 *
 * The buffer is bounded: a consumer that falls more than `LIVE_BUFFER_LIMIT` messages behind (a
 * client that reads slower than the channel is published to, or not at all) is cut off: its
 * buffered messages are dropped at once and its next pull fails with SourceOverflowError, so the
 * HTTP edge disconnects it with a logged reason, instead of memory growing without bound. Other
 * consumers of the channel are not affected.
 *
 * The channel is left exactly once, at the first of: the iterator's `return()` (the consumer
 * stopped), the overflow, the step's release (the run ended: `ctx.onRelease`).
 *
 * A consumer that can write a message at once asks for them pushed (`push`): each message is then
 * handed to it as it is delivered, with no promise per message, until it says its socket is full;
 * from then on messages are kept for its pulls again (bench/sse: 22.3 to 19.6 us per delivery).
 */
import { SourceOverflowError, type PushConsumer, type SourceTraits } from '../../../graph/index.js';

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
  /** Pulls waiting for a message (a for-await loop has at most one). */
  #waiters: Waiter[] = [];
  #failure: SourceOverflowError | undefined;
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

  /** True once the channel was left (returned, overflowed or released). */
  get released(): boolean {
    return this.#released;
  }

  /** A decoded message of the channel, from the shared listener. */
  deliver(message: unknown): void {
    if (this.#released) return;
    const consumer = this.#pushTo;
    if (consumer !== undefined) {
      if (!consumer.take(message)) this.#pushTo = undefined;
      return;
    }
    const waiter = this.#waiters.shift();
    if (waiter !== undefined) waiter.resolve({ done: false, value: message });
    else if (this.#buffer.length < this.#limit) this.#buffer.push(message);
    else this.#overflow();
  }

  /** One pass only: the messages are handed out as they are pulled. */
  [Symbol.asyncIterator](): this {
    if (this.#iterated) throw new Error(`${this.#label}: a subscription's stream can be read only once`);
    this.#iterated = true;
    return this;
  }

  next(): Promise<IteratorResult<unknown>> {
    if (this.#buffer.length > 0) return Promise.resolve({ done: false, value: this.#buffer.shift() });
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
    this.#leave(this);
    for (const waiter of this.#waiters.splice(0)) waiter.resolve(DONE);
    const consumer = this.#pushTo;
    this.#pushTo = undefined;
    consumer?.end();
  }

  /** Only ever with no pull waiting (a waiting pull takes the message instead). */
  #overflow(): void {
    this.#failure = new SourceOverflowError(`${this.#label}: the consumer fell more than ${this.#limit} messages behind the channel and was cut off`);
    this.release();
    // The consumer is typically waiting for its socket to drain, not pulling: tell it now.
    this.#onFailure?.();
  }
}
