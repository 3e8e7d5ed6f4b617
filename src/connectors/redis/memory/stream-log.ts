/**
 * One stream key of the memory store: entries in id order, with Redis' XADD rules (an explicit id
 * must exceed the last one, trimmed or not; `*` never goes back), trimming, and XRANGE, XREVRANGE and
 * XREAD. `MAXLEN ~` and `MINID ~` trim exactly, where Redis may keep a radix node's worth more: both
 * keep at least what `~` promises.
 */
import { StoreReplyError } from '../errors.js';
import type { StreamEntry, StreamTrim } from '../types.js';
import { compareIds, formatId, parseStreamId, type StreamId, UINT64_MAX, ZERO_ID } from './stream-id.js';

interface Kept {
  readonly id: StreamId;
  readonly entry: StreamEntry;
}

export class StreamLog {
  /** Entries from `#head` on are live; the ones before it were trimmed and wait for a compaction. */
  #entries: Kept[] = [];
  #head = 0;
  #lastId: StreamId = ZERO_ID;

  constructor(private readonly clock: () => number = Date.now) {}

  get length(): number {
    return this.#entries.length - this.#head;
  }

  /** XADD: the new entry's id, or a reply error when `id` cannot follow the stream's last one. */
  add(id: string, fields: readonly string[], trim: StreamTrim | undefined): string {
    // The retention is read first: a bad MINID adds nothing, as in Redis.
    const minId = trim?.minId === undefined ? undefined : parseMinId(trim.minId);
    const next = this.#nextId(id);
    const entry: StreamEntry = { id: formatId(next), fields };
    this.#entries.push({ id: next, entry });
    this.#lastId = next;
    if (trim !== undefined) this.#trim(trim.maxLen, minId);
    return entry.id;
  }

  /** Entries with from <= id <= to, at most `count` (undefined: all), oldest first or newest first. */
  range(from: StreamId, to: StreamId, count: number | undefined, newestFirst: boolean): StreamEntry[] {
    const out: StreamEntry[] = [];
    if (compareIds(from, to) > 0 || count === 0) return out;
    const limit = count ?? Number.POSITIVE_INFINITY;
    if (newestFirst) {
      for (let i = this.#firstAbove(to) - 1; i >= this.#head && out.length < limit; i--) {
        const kept = this.#entries[i]!;
        if (compareIds(kept.id, from) < 0) break;
        out.push(kept.entry);
      }
    } else {
      for (let i = this.#firstAtOrAbove(from); i < this.#entries.length && out.length < limit; i++) {
        const kept = this.#entries[i]!;
        if (compareIds(kept.id, to) > 0) break;
        out.push(kept.entry);
      }
    }
    return out;
  }

  /** XREAD's view: the entries after `after`, oldest first, at most `count`. */
  after(after: StreamId, count: number | undefined): StreamEntry[] {
    const limit = count ?? Number.POSITIVE_INFINITY;
    const out: StreamEntry[] = [];
    for (let i = this.#firstAbove(after); i < this.#entries.length && out.length < limit; i++) out.push(this.#entries[i]!.entry);
    return out;
  }

  /** The id XREAD's `$` stands for: the last one the stream gave, trimmed or not. */
  get lastId(): StreamId {
    return this.#lastId;
  }

  #trim(maxLen: number | undefined, minId: StreamId | undefined): void {
    if (maxLen !== undefined) this.#head = Math.max(this.#head, this.#entries.length - maxLen);
    if (minId !== undefined) this.#head = Math.max(this.#head, this.#firstAtOrAbove(minId));
    // Compacted once the dead part is half the array: amortised O(1) per trimmed entry.
    if (this.#head > 0 && this.#head * 2 >= this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
  }

  #nextId(text: string): StreamId {
    const last = this.#lastId;
    if (text === '*') {
      const now = BigInt(this.clock());
      if (now > last.ms) return { ms: now, seq: 0n };
      return this.#following(last.ms);
    }
    const parsed = parseStreamId(text, 0n, true);
    if (parsed.seq === undefined) {
      // `<ms>-*`: the next sequence in that millisecond.
      if (parsed.ms > last.ms) return { ms: parsed.ms, seq: 0n };
      if (parsed.ms < last.ms) throw tooSmall();
      return this.#following(last.ms);
    }
    const id = { ms: parsed.ms, seq: parsed.seq };
    if (id.ms === 0n && id.seq === 0n) throw new StoreReplyError('ERR The ID specified in XADD must be greater than 0-0');
    if (compareIds(id, last) <= 0) throw tooSmall();
    return id;
  }

  /** The id after the last one, within millisecond `ms` (or the next one when its sequence is used up). */
  #following(ms: bigint): StreamId {
    const last = this.#lastId;
    if (last.seq < UINT64_MAX) return { ms, seq: last.seq + 1n };
    if (ms < UINT64_MAX) return { ms: ms + 1n, seq: 0n };
    throw new StoreReplyError('ERR The stream has exhausted the last possible ID, unable to add more items');
  }

  /** The index of the first live entry with an id >= `id`. */
  #firstAtOrAbove(id: StreamId): number {
    let lo = this.#head;
    let hi = this.#entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareIds(this.#entries[mid]!.id, id) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The index of the first live entry with an id > `id`. */
  #firstAbove(id: StreamId): number {
    let lo = this.#head;
    let hi = this.#entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareIds(this.#entries[mid]!.id, id) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function parseMinId(text: string): StreamId {
  const parsed = parseStreamId(text, 0n);
  return { ms: parsed.ms, seq: parsed.seq! };
}

function tooSmall(): StoreReplyError {
  return new StoreReplyError('ERR The ID specified in XADD is equal or smaller than the target stream top item');
}
