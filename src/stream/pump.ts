/**
 * Writes a pulled source through an encoder into the response, with backpressure end to end
 * (DECISIONS.md §6): an item is pulled only when the previous write was accepted, so a slow client
 * slows the cursor, fills the subscription's buffer or pauses the upstream socket; nothing beyond one
 * `flush_every` batch accumulates. HTTP is the edge's: it commits the head, may pull the first item
 * itself, and logs the pump's result.
 */
import type { Writable } from 'node:stream';
import {
  SourceLostError,
  SourceOverflowError,
  handsOverItems,
  type PulledSource,
  type PushConsumer,
  type SourceTraits,
  type StreamEnd,
} from '../../graph/index.js';
import type { Problem } from '../problem/index.js';
import { freeBuffer } from './free-bytes.js';
import type { StreamEncoder, StreamEncoding } from './types.js';

/** Why a stream ended, for the log line. */
export type StreamEndReason = 'complete' | 'source failed' | 'source lost' | 'client closed' | 'client too slow' | 'server shutting down';

/**
 * A live source's backlog per client when the step sets no `max_backlog`: the bytes it may hold for
 * a client that does not read (its kept messages and the response's unsent bytes). A few seconds of
 * a busy feed; a client further behind is cut off and reconnects rather than memory growing.
 */
export const DEFAULT_MAX_BACKLOG_BYTES = 4 * 1024 * 1024;

export interface PumpResult {
  readonly end: StreamEnd;
  readonly why: StreamEndReason;
  /** The source's failure (`end: 'error'`). */
  readonly error?: unknown;
  readonly items: number;
  readonly bytes: number;
}

export interface PumpOptions {
  readonly source: PulledSource;
  /** Items arrive when published (SourceTraits.live): it may fail while nobody pulls (onFailure). */
  readonly live: boolean;
  readonly encoding: StreamEncoding;
  readonly out: Writable;
  /** The problem record sent in the final frame of a stream whose source failed after its first byte. */
  readonly problemOf: (error: unknown) => Problem;
  /**
   * Cuts the transfer short after what was written has left (csv and raw failures): the client must
   * see a truncated response, never a complete one. The HTTP edge ends the socket without the
   * response's terminating chunk.
   */
  readonly abort: () => void;
  /**
   * What to cork so that the writes of one turn leave together: the response's socket. Corking the
   * response itself after its head was flushed sends the body before the head on Node.js 22.
   */
  readonly corkable?: { cork(): void; uncork(): void } | undefined;
  /** Text written past the response, to its connection: asked as the pump runs, the head sent. */
  readonly direct?: (() => DirectWrites | undefined) | undefined;
}

/**
 * Writes a stream's text past the response, straight to its connection (the HTTP edge frames it:
 * src/http/chunk-writes.ts). `write` answers false when the connection's buffer is full (`drains`
 * then emits `drain`), and undefined when it cannot: the text is then written through the response.
 */
export interface DirectWrites {
  readonly drains: NodeJS.EventEmitter;
  /** `size`: the text's UTF-8 byte length, which the pump counts anyway. */
  write(text: string, size: number): boolean | undefined;
}

type Iter = Iterator<unknown> | AsyncIterator<unknown>;

/**
 * A published message reaches every client of a feed one after the other, framed once (the
 * encoders keep their last frame): its bytes are made once too, and the same buffer goes to every
 * socket, instead of each write encoding the text again.
 */
let lastText = '';
let lastBytes: Buffer = Buffer.alloc(0);

function sharedBytes(text: string): Buffer {
  if (text !== lastText) {
    lastText = text;
    lastBytes = Buffer.from(text, 'utf8');
  }
  return lastBytes;
}
type Step = IteratorResult<unknown> | Promise<IteratorResult<unknown>>;

export class Pump {
  private readonly iterator: Iter;
  private readonly encoder: StreamEncoder;
  private readonly out: Writable;
  private readonly options: PumpOptions;
  private items = 0;
  private bytes = 0;
  /** Frames of the current `flush_every` batch, joined into one write. */
  private batch = '';
  private batched = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Set once: the client went away, or the server stops the stream. */
  private stopped: StreamEndReason | undefined;
  /** Wakes a pump waiting for `drain`. */
  private wakeDrained: (() => void) | undefined;
  /** The last write was refused (the socket's buffer is over its mark): wait for `drain`. */
  private needDrain = false;
  private corked = false;
  /** Writes are corked until the next tick (pulls); not while items are pushed, one write each. */
  private corking = true;
  private iterating = true;
  /** A live source that pushes its items (SourceTraits.push), with this pump's consumer for it. */
  private readonly pushing: { readonly source: SourceTraits; readonly consumer: PushConsumer } | undefined;
  /** Wakes the loop sleeping while items are pushed. */
  private wakeParked: (() => void) | undefined;
  /** An item pushed that could not be encoded: the loop fails with it once awake. */
  private pushFailure: unknown;
  /** The source hands its items over: a byte chunk's buffer is freed once written (freeAfter). */
  private readonly freeWritten: boolean;
  /** An item pushed is being written: its frame is likely the one every client of the feed gets. */
  private fannedOut = false;
  /** The buffers of the first and of the latest chunk sent (freeAfter). */
  private firstBuffer: ArrayBufferLike | undefined;
  private lastBuffer: ArrayBufferLike | undefined;
  /** Text goes past the response, to its connection (PumpOptions.direct). */
  private direct: DirectWrites | undefined;

  constructor(options: PumpOptions) {
    this.options = options;
    const source = options.source;
    this.iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : (source as Iterable<unknown>)[Symbol.iterator]();
    this.encoder = options.encoding.open();
    this.out = options.out;
    this.freeWritten = handsOverItems(source);
    this.onDrain = this.onDrain.bind(this);
    this.onClose = this.onClose.bind(this);
    this.uncork = this.uncork.bind(this);
    // A live source that fails while this pump waits for a drain that may never come (the client
    // stopped reading) wakes it, so it pulls, receives the failure and cuts the client off.
    const traits = source as SourceTraits;
    if (options.live) traits.onFailure?.(() => this.wakeDrained?.());
    // What a live source keeps for this client counts with what the response has not sent yet.
    if (options.live) traits.limitBacklog?.(options.encoding.maxBacklogBytes ?? DEFAULT_MAX_BACKLOG_BYTES, () => this.held());
    // A live source that can push is written to as its items come (parkWhilePushed).
    this.pushing =
      options.live && typeof traits.push === 'function'
        ? { source: traits, consumer: { take: (item) => this.pushed(item), end: () => this.wakeParked?.() } }
        : undefined;
  }

  /** The first pull, before the response is committed: its failure can still be a problem answer. */
  pullFirst(): Step {
    return this.iterator.next();
  }

  /**
   * Stops pulling (the edge timed out or the client left before the head was sent): the source is
   * told to stop. The pump is not run after this.
   */
  abandon(): void {
    this.finishIteration();
  }

  /**
   * Writes the stream to its end. `first` is the edge's result of `pullFirst()`, when it pulled.
   * Never rejects: every ending is a result.
   */
  async run(first?: IteratorResult<unknown>): Promise<PumpResult> {
    const out = this.out;
    const direct = this.options.direct?.();
    this.direct = direct;
    out.on('drain', this.onDrain);
    out.on('close', this.onClose);
    direct?.drains.on('drain', this.onDrain);
    try {
      return await this.loop(first);
    } finally {
      if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
      out.off('drain', this.onDrain);
      out.off('close', this.onClose);
      direct?.drains.off('drain', this.onDrain);
    }
  }

  /**
   * The server is shutting down: a live or SSE stream ends now, politely (SSE: a last comment, then
   * the end of the response, and the client reconnects elsewhere).
   */
  stop(): void {
    if (this.stopped !== undefined) return;
    this.stopped = 'server shutting down';
    this.finishIteration();
    this.wakeAll();
  }

  private async loop(first: IteratorResult<unknown> | undefined): Promise<PumpResult> {
    const { encoder, options } = this;
    const flushEvery = options.encoding.flushEvery;
    this.writeText(encoder.start());
    const heartbeatMs = options.encoding.heartbeatMs;
    if (heartbeatMs !== undefined) this.heartbeat = setInterval(() => this.beat(), heartbeatMs);
    let step: IteratorResult<unknown> | undefined = first;
    try {
      for (;;) {
        if (step === undefined) {
          // Asked without a promise: a live source that cannot push yet (a resumed stream's replay)
          // is pulled at full speed.
          if (this.pushing !== undefined && this.startPushing()) {
            await this.parkWhilePushed();
            if (this.stopped !== undefined) return this.stoppedResult();
            if (this.needDrain) await this.drained();
            continue;
          }
          step = await this.next();
        }
        if (this.stopped !== undefined) return this.stoppedResult();
        if (step.done) break;
        const value = step.value;
        step = undefined;
        this.writeItem(value, flushEvery);
        if (this.needDrain) await this.drained();
        if (this.stopped !== undefined) return this.stoppedResult();
      }
    } catch (error) {
      return this.failed(error);
    }
    this.flushBatch();
    this.finishIteration();
    this.out.end();
    return this.result('complete', 'complete');
  }

  private writeItem(value: unknown, flushEvery: number): void {
    const frame = this.encoder.item(value);
    this.items++;
    if (typeof frame !== 'string') {
      this.flushBatch();
      this.send(frame);
    } else {
      this.batch += frame;
      if (++this.batched >= flushEvery) this.flushBatch();
    }
  }

  /**
   * Asks a live source to push its items as they come (SourceTraits.push). False when there is
   * something to pull first (kept items, a failure, the end).
   */
  private startPushing(): boolean {
    const { source, consumer } = this.pushing!;
    return this.stopped === undefined && !this.needDrain && source.push!(consumer);
  }

  /**
   * Live items written as they come, without a promise per item: the loop sleeps while `pushed`
   * writes them, and wakes when pushing stops: the socket is full, the source ended, the stream
   * stopped, or an item could not be encoded (thrown here).
   */
  private async parkWhilePushed(): Promise<void> {
    this.corking = false;
    await new Promise<void>((resolve) => {
      this.wakeParked = resolve;
    });
    this.wakeParked = undefined;
    this.corking = true;
    const failure = this.pushFailure;
    if (failure !== undefined) {
      this.pushFailure = undefined;
      throw failure;
    }
  }

  /** `take` of the push consumer: writes the item; false (and the loop woken) when pushing must stop. */
  private pushed(item: unknown): boolean {
    if (this.stopped === undefined) {
      try {
        this.fannedOut = true;
        this.writeItem(item, this.options.encoding.flushEvery);
        if (!this.needDrain) return true;
      } catch (error) {
        this.pushFailure = error;
      } finally {
        this.fannedOut = false;
      }
    }
    this.wakeParked?.();
    return false;
  }

  /**
   * The next item. A live source may keep a pull waiting for minutes; a client leaving or a shutdown
   * ends that wait through the iterator's `return()`, which a live source answers by settling the
   * waiting pull (SourceTraits.live): no wrapper promise per item on the fan-out path.
   */
  private next(): Step {
    return this.iterator.next();
  }

  private drained(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wakeDrained = resolve;
    }).finally(() => {
      this.wakeDrained = undefined;
    });
  }

  private onDrain(): void {
    this.needDrain = false;
    this.wakeDrained?.();
  }

  private wakeAll(): void {
    this.wakeDrained?.();
    this.wakeParked?.();
  }

  private onClose(): void {
    // 'close' after a complete response is the normal end of the socket's use, not a departure.
    if (this.out.writableFinished || this.stopped !== undefined) return;
    this.stopped = 'client closed';
    this.finishIteration();
    this.wakeAll();
  }

  private beat(): void {
    // A socket that is not draining gets no heartbeat: one more frame would only queue behind.
    if (this.needDrain || this.stopped !== undefined) return;
    this.writeText(this.encoder.heartbeat());
  }

  private failed(error: unknown): PumpResult {
    this.finishIteration();
    if (this.stopped !== undefined) return this.stoppedResult();
    if (error instanceof SourceOverflowError) {
      // The client could not keep up: it is cut off, and would not read a last frame anyway.
      this.out.destroy();
      return this.result('error', 'client too slow', error);
    }
    this.flushBatch();
    if (error instanceof SourceLostError) {
      // Items may have been missed: the client must reconnect, so the stream never ends as complete.
      const frame = this.encoder.lost?.();
      if (frame === undefined) {
        if (this.corked) this.uncork();
        this.options.abort();
      } else {
        this.writeText(frame);
        this.out.end();
      }
      return this.result('error', 'source lost', error);
    }
    const frame = this.encoder.error(this.options.problemOf(error));
    if (frame === undefined) {
      // csv, raw: no way to say it in the format; a truncated transfer, never a silent success.
      if (this.corked) this.uncork();
      this.options.abort();
    } else {
      this.writeText(frame);
      this.out.end();
    }
    return this.result('error', 'source failed', error);
  }

  private stoppedResult(): PumpResult {
    const why = this.stopped!;
    if (why === 'server shutting down' && !this.out.destroyed) {
      this.flushBatch();
      this.writeText(this.encoder.shutdown());
      this.out.end();
    }
    return this.result('cancel', why);
  }

  private result(end: StreamEnd, why: StreamEndReason, error?: unknown): PumpResult {
    return error === undefined ? { end, why, items: this.items, bytes: this.bytes } : { end, why, error, items: this.items, bytes: this.bytes };
  }

  /** Tells the source to stop (once); a source that already ended ignores it. */
  private finishIteration(): void {
    if (!this.iterating) return;
    this.iterating = false;
    try {
      const returned = this.iterator.return?.();
      if (returned instanceof Promise) returned.catch(() => {});
    } catch {
      // A source that fails to stop is released by its step when the stream is disposed.
    }
  }

  /**
   * The bytes this stream holds that the client has not received: the response's unsent writes
   * (its socket's included; a compressor's input and output when compressed) and the open batch.
   */
  private held(): number {
    const out = this.out as Writable & { readonly readableLength?: number };
    // `|| 0`: a response type without the count must not turn the bound off (NaN compares false).
    return (out.writableLength || 0) + (out.readableLength || 0) + this.batch.length;
  }

  private flushBatch(): void {
    if (this.batched === 0) return;
    const text = this.batch;
    this.batch = '';
    this.batched = 0;
    this.writeText(text);
  }

  private writeText(text: string): void {
    if (text === '') return;
    const direct = this.direct;
    if (direct !== undefined && !this.out.destroyed) {
      this.corkTurn();
      const size = Buffer.byteLength(text);
      const accepted = direct.write(text, size);
      if (accepted !== undefined) {
        this.bytes += size;
        if (!accepted) this.needDrain = true;
        return;
      }
    }
    if (this.fannedOut) {
      const bytes = sharedBytes(text);
      this.bytes += bytes.byteLength;
      this.write(bytes);
      return;
    }
    this.bytes += Buffer.byteLength(text);
    this.write(text);
  }

  private send(bytes: Uint8Array): void {
    // From Node.js 24 the response holds what it is written until the next tick: text written past
    // it after these bytes would arrive first. Written through the response from now on.
    this.direct = undefined;
    this.bytes += bytes.byteLength;
    this.write(bytes, this.freeWritten ? this.freeAfter(bytes) : undefined);
  }

  /**
   * What to free once `bytes` is written (./free-bytes.ts): the previous buffer's chunks, once a chunk
   * of another buffer comes. Handed-over chunks arrive in buffer order and writes finish in order, so
   * none of it is still to come or unwritten. The first buffer (it may hold the head) is never freed.
   */
  private freeAfter(bytes: Uint8Array): (() => void) | undefined {
    const buffer = bytes.buffer;
    const previous = this.lastBuffer;
    if (buffer === previous) return undefined;
    this.lastBuffer = buffer;
    if (previous === undefined) {
      this.firstBuffer = buffer;
      return undefined;
    }
    if (previous === this.firstBuffer) return undefined;
    return () => freeBuffer(previous);
  }

  /**
   * Writes made in one turn of the event loop leave in one `writev`: the response is corked on the
   * first and uncorked on the next tick, so a cursor's buffered batch of rows is not a syscall per row.
   */
  private write(chunk: string | Uint8Array, written?: () => void): void {
    if (this.out.destroyed) return;
    this.corkTurn();
    // `written` runs once the bytes have left (or the response was destroyed): nothing holds them then.
    if (!this.out.write(chunk, written)) this.needDrain = true;
  }

  private corkTurn(): void {
    if (!this.corked && this.corking) {
      this.corked = true;
      (this.options.corkable ?? this.out).cork();
      process.nextTick(this.uncork);
    }
  }

  private uncork(): void {
    this.corked = false;
    (this.options.corkable ?? this.out).uncork();
  }
}
