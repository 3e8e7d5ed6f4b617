/**
 * The order of SSE event ids, for a stream that resumes (./resume.ts), whatever type the `id`
 * expression gives: integers (`42`, `"42"`) by value at any size; Redis entry ids (`"1700000000000-3"`)
 * by time then sequence; anything else (a ULID) as text. Ids of different shapes compare as text,
 * so a stray id never throws.
 */

/** An id read once, compared many times. */
export type EventId =
  | { readonly shape: 'integer'; readonly text: string; readonly value: bigint }
  | { readonly shape: 'entry'; readonly text: string; readonly ms: bigint; readonly seq: bigint }
  | { readonly shape: 'text'; readonly text: string };

const INTEGER = /^-?\d{1,40}$/;
const STREAM_ENTRY = /^(\d{1,20})-(\d{1,20})$/;

/** The id as sent in the `id:` line; undefined for an item without one (null). */
export function readEventId(id: unknown): EventId | undefined {
  if (id === null || id === undefined) return undefined;
  if (typeof id === 'number' && Number.isSafeInteger(id)) return { shape: 'integer', text: String(id), value: BigInt(id) };
  if (typeof id === 'bigint') return { shape: 'integer', text: String(id), value: id };
  const text = typeof id === 'string' ? id : typeof id === 'object' ? JSON.stringify(id) : String(id);
  if (INTEGER.test(text)) return { shape: 'integer', text, value: BigInt(text) };
  const entry = STREAM_ENTRY.exec(text);
  if (entry !== null) return { shape: 'entry', text, ms: BigInt(entry[1]!), seq: BigInt(entry[2]!) };
  return { shape: 'text', text };
}

/** Negative when `a` came before `b`, zero for the same id, positive after. */
export function compareEventIds(a: EventId, b: EventId): number {
  if (a.shape === 'integer' && b.shape === 'integer') return sign(a.value - b.value);
  if (a.shape === 'entry' && b.shape === 'entry') return a.ms === b.ms ? sign(a.seq - b.seq) : sign(a.ms - b.ms);
  return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
}

/**
 * The first id that can come after `id`, when ids of its shape leave no room between (integers:
 * the next one; a stream entry: the next sequence number of the same millisecond, the smallest id
 * Redis could have given next); undefined for text ids.
 */
export function nextEventId(id: EventId): EventId | undefined {
  if (id.shape === 'integer') return readEventId(id.value + 1n);
  if (id.shape === 'entry') return readEventId(`${id.ms}-${id.seq + 1n}`);
  return undefined;
}

/** True when `b` comes right after `a`: integers only (a gap between entry ids is normal). */
export function followsDirectly(a: EventId, b: EventId): boolean {
  return a.shape === 'integer' && b.shape === 'integer' && b.value === a.value + 1n;
}

function sign(difference: bigint): number {
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}
