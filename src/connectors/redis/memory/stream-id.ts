/**
 * Stream entry ids as Redis reads and writes them (`<ms>-<seq>`, two unsigned 64-bit numbers), for
 * the memory store's streams (./stream-log.ts). The texts of the errors are Redis' own, so a bad id
 * fails alike on both stores.
 */
import { StoreReplyError } from '../errors.js';

export interface StreamId {
  readonly ms: bigint;
  readonly seq: bigint;
}

export const UINT64_MAX = 2n ** 64n - 1n;
export const ZERO_ID: StreamId = { ms: 0n, seq: 0n };
export const MAX_ID: StreamId = { ms: UINT64_MAX, seq: UINT64_MAX };

const ID = /^([0-9]+)(?:-([0-9]+|\*))?$/;

export function invalidStreamId(): StoreReplyError {
  return new StoreReplyError('ERR Invalid stream ID specified as stream command argument');
}

/**
 * An id as a command argument: `<ms>-<seq>`, or `<ms>` alone, whose sequence is `missingSeq` (0 for
 * a range's start and for XADD, the largest for a range's end, as Redis reads them). `<ms>-*` only
 * where `starSeq` (XADD): its sequence is then undefined, for the store to choose.
 */
export function parseStreamId(text: string, missingSeq: bigint, starSeq = false): { ms: bigint; seq: bigint | undefined } {
  const match = ID.exec(text);
  if (match === null) throw invalidStreamId();
  const ms = BigInt(match[1]!);
  if (ms > UINT64_MAX) throw invalidStreamId();
  if (match[2] === '*') {
    if (!starSeq) throw invalidStreamId();
    return { ms, seq: undefined };
  }
  const seq = match[2] === undefined ? missingSeq : BigInt(match[2]);
  if (seq > UINT64_MAX) throw invalidStreamId();
  return { ms, seq };
}

export function compareIds(a: StreamId, b: StreamId): number {
  if (a.ms !== b.ms) return a.ms < b.ms ? -1 : 1;
  if (a.seq !== b.seq) return a.seq < b.seq ? -1 : 1;
  return 0;
}

export function formatId(id: StreamId): string {
  return `${id.ms}-${id.seq}`;
}

/** The id right after `id` (an exclusive range start `(id`), or undefined past the last possible one. */
export function nextId(id: StreamId): StreamId | undefined {
  if (id.seq < UINT64_MAX) return { ms: id.ms, seq: id.seq + 1n };
  return id.ms < UINT64_MAX ? { ms: id.ms + 1n, seq: 0n } : undefined;
}

/** The id right before `id` (an exclusive range end), or undefined before 0-0. */
export function previousId(id: StreamId): StreamId | undefined {
  if (id.seq > 0n) return { ms: id.ms, seq: id.seq - 1n };
  return id.ms > 0n ? { ms: id.ms - 1n, seq: UINT64_MAX } : undefined;
}

/**
 * A range bound of XRANGE / XREVRANGE: `-` (the smallest), `+` (the largest), an id, or `(id`
 * exclusive (Redis 6.2). An exclusive bound past either end of the id space is refused as Redis
 * refuses it.
 */
export function parseRangeBound(text: string, side: 'start' | 'end'): StreamId {
  if (text === '-') return ZERO_ID;
  if (text === '+') return MAX_ID;
  const exclusive = text.startsWith('(');
  const body = exclusive ? text.slice(1) : text;
  const outOfInterval = (): StoreReplyError => new StoreReplyError(`ERR invalid ${side} ID for the interval`);
  const parsed = parseStreamId(body, side === 'start' ? 0n : UINT64_MAX);
  const id = { ms: parsed.ms, seq: parsed.seq! };
  if (!exclusive) return id;
  const moved = side === 'start' ? nextId(id) : previousId(id);
  if (moved === undefined) throw outOfInterval();
  return moved;
}
