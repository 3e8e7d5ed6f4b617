/**
 * A live stream that resumes where its client left off (`stream "sse" { source, replay }`): what the
 * client missed, then the live items, in order, none twice, with an explicit gap where the log no
 * longer keeps what it missed.
 *
 * Ordering: the live source is joined before the replay is read (its step comes first), so every item
 * published meanwhile is in the replay, the live backlog or both; live items not past the last id
 * sent are dropped. The replay starts at the client's own last id (`seq >= @last`, `XRANGE key <last>
 * +`): when its first item past that is neither it nor (integer ids) the next one, the log was
 * trimmed and a StreamGap goes first. A log holding nothing from that id on may have restarted (ids
 * from 1 again): after the gap, live items are compared with the replay's items only.
 */
import type { PulledSource, PushConsumer, SourceTraits } from '../../../graph/index.js';
import { StreamGap } from '../../stream/index.js';
import { type EventId, compareEventIds, followsDirectly, nextEventId, readEventId } from './event-ids.js';

type Iter = Iterator<unknown> | AsyncIterator<unknown>;

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * - `replay`: the missed items are being read;
 * - `dedupe`: live items are read, those already sent are left out;
 * - `live`: a live item past the replay was sent: the rest pass untouched.
 */
type Phase = 'replay' | 'dedupe' | 'live';

export interface ResumeOptions {
  /** The live source (SourceTraits.live): joined before the replay was read. */
  readonly live: AsyncIterable<unknown> & SourceTraits;
  /** What the client missed, from its last id on (that one included). */
  readonly replay: PulledSource;
  /** An item's id (the step's `id` expression). */
  readonly idOf: (item: unknown) => unknown;
  /** The client's last id (`Last-Event-ID`); undefined on a first connection. */
  readonly lastEventId: unknown;
}

export class ResumedSource implements AsyncIterableIterator<unknown>, SourceTraits {
  readonly live = true;
  readonly #live: AsyncIterator<unknown>;
  readonly #liveTraits: SourceTraits;
  readonly #replay: Iter;
  readonly #replayNow: (() => IteratorYieldResult<unknown> | undefined) | undefined;
  readonly #idOf: (item: unknown) => unknown;
  /** The client's last id, until the replay has told whether the log still keeps it. */
  #unconfirmed: EventId | undefined;
  /** The last id the client has: it sent it, or it was sent. */
  #last: EventId | undefined;
  /** The replay's last item, sent or left out. */
  #lastReplayed: IteratorResult<unknown> | undefined;
  #phase: Phase = 'replay';
  /** An item to hand out after the gap that precedes it. */
  #after: { readonly item: unknown } | undefined;
  #iterated = false;

  constructor(options: ResumeOptions) {
    this.#liveTraits = options.live;
    this.#live = options.live[Symbol.asyncIterator]();
    const replay = options.replay;
    this.#replay = Symbol.asyncIterator in replay ? replay[Symbol.asyncIterator]() : (replay as Iterable<unknown>)[Symbol.iterator]();
    const pullNow = (this.#replay as SourceTraits).pullNow;
    this.#replayNow = pullNow === undefined ? undefined : pullNow.bind(this.#replay);
    this.#idOf = options.idOf;
    this.#unconfirmed = readEventId(options.lastEventId);
    this.#last = this.#unconfirmed;
  }

  [Symbol.asyncIterator](): this {
    if (this.#iterated) throw new Error('a resumed stream can be read only once');
    this.#iterated = true;
    return this;
  }

  next(): Promise<IteratorResult<unknown>> {
    const after = this.#after;
    if (after !== undefined) {
      this.#after = undefined;
      return Promise.resolve({ done: false, value: after.item });
    }
    if (this.#phase !== 'replay') return this.#nextLive();
    // Once the client's id is found (or there is none), replayed items pass as they come: one
    // promise each at most, nothing computed (the replay is in id order; the last one's id is read
    // at its end).
    if (this.#unconfirmed === undefined) {
      // A row the replay's cursor has at hand passes without a promise of its own (SourceTraits.pullNow).
      const now = this.#replayNow?.();
      if (now !== undefined) {
        this.#lastReplayed = now;
        return Promise.resolve(now);
      }
      return Promise.resolve(this.#replay.next()).then(this.#passMissed);
    }
    return this.#nextUnconfirmed();
  }

  readonly #passMissed = (step: IteratorResult<unknown>): IteratorResult<unknown> | Promise<IteratorResult<unknown>> => {
    if (step.done) return this.#replayEnded();
    this.#lastReplayed = step;
    return step;
  };

  /** The replay until the client's id is found or passed: what comes before it is left out. */
  async #nextUnconfirmed(): Promise<IteratorResult<unknown>> {
    for (;;) {
      const step = await this.#replay.next();
      if (step.done) return this.#replayEnded();
      this.#lastReplayed = step;
      const requested = this.#unconfirmed!;
      const id = readEventId(this.#idOf(step.value));
      if (id === undefined) continue;
      const order = compareEventIds(id, requested);
      if (order < 0) continue;
      this.#unconfirmed = undefined;
      if (order === 0) return this.next();
      if (followsDirectly(requested, id)) return step;
      this.#after = { item: step.value };
      return { done: false, value: gap(requested, id) };
    }
  }

  /**
   * The replay is over: live items from now on are compared with the last id the client has (the
   * last one replayed, else the one it sent). A client's id the replay never reached is a gap:
   * the log holds nothing from it on. It may also have started again (an in-memory log after a
   * restart), its ids from lower down: live items are then only compared with what it held.
   */
  #replayEnded(): Promise<IteratorResult<unknown>> {
    this.#phase = 'dedupe';
    const lastReplayed = this.#lastReplayed === undefined ? undefined : readEventId(this.#idOf(this.#lastReplayed.value));
    const requested = this.#unconfirmed;
    if (requested !== undefined) {
      this.#unconfirmed = undefined;
      this.#last = lastReplayed;
      return Promise.resolve({ done: false, value: gap(requested, undefined) });
    }
    if (lastReplayed !== undefined && (this.#last === undefined || compareEventIds(lastReplayed, this.#last) > 0)) this.#last = lastReplayed;
    return this.#nextLive();
  }

  async #nextLive(): Promise<IteratorResult<unknown>> {
    for (;;) {
      const step = await this.#live.next();
      if (step.done || this.#phase === 'live' || this.#isNew(step.value)) return step;
    }
  }

  /** A live item during dedupe: false when the client has it already. */
  #isNew(item: unknown): boolean {
    const last = this.#last;
    const id = last === undefined ? undefined : readEventId(this.#idOf(item));
    if (last !== undefined && id !== undefined && compareEventIds(id, last) <= 0) return false;
    this.#phase = 'live';
    return true;
  }

  push(consumer: PushConsumer): boolean {
    if (this.#phase === 'replay' || this.#after !== undefined) return false;
    const live = this.#liveTraits;
    if (live.push === undefined) return false;
    if (this.#phase === 'live') return live.push(consumer);
    return live.push({
      // An item the client has is left out, and the pushing goes on.
      take: (item) => (this.#phase !== 'live' && !this.#isNew(item)) || consumer.take(item),
      end: () => consumer.end(),
    });
  }

  onFailure(listener: () => void): void {
    this.#liveTraits.onFailure?.(listener);
  }

  limitBacklog(maxBytes: number, held: () => number): void {
    this.#liveTraits.limitBacklog?.(maxBytes, held);
  }

  async return(): Promise<IteratorResult<unknown>> {
    try {
      await this.#replay.return?.();
    } finally {
      await this.#live.return?.();
    }
    return DONE;
  }
}

function gap(requested: EventId, resumesAt: EventId | undefined): StreamGap {
  const firstLost = nextEventId(requested);
  return new StreamGap({
    reason: 'not kept',
    last_event_id: requested.text,
    ...(firstLost !== undefined ? { first_lost: firstLost.text } : {}),
    ...(resumesAt !== undefined ? { resumes_at: resumesAt.text } : {}),
  });
}
