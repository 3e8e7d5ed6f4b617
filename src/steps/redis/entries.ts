/**
 * Stream entries in and out of the manifest (docs/redis.md "Redis streams"). XADD takes `fields`, an
 * object: each value is stored as `value` is (../text-values.ts: a string as it is, anything else as its
 * JSON text). An entry read back (XRANGE, XREVRANGE, XREAD) is `{ id, fields }`, each field's text
 * decoded as GET decodes a value; a field named twice in one entry (possible in Redis, not through
 * svc) keeps its last value.
 */
import { decodeValue, encodeValue } from '../text-values.js';

/** One entry as steps and stream items see it. */
export interface EntryValue {
  readonly id: string;
  readonly fields: Record<string, unknown>;
}

interface RawEntry {
  readonly id: string;
  readonly fields: readonly string[];
}

/** XADD's field/value pairs, flat. A `fields` that is not an object with a field fails the step. */
export function entryFields(fields: unknown, step: string): string[] {
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
    throw new TypeError(`${step}: fields must be an object, got ${fields === null ? 'null' : Array.isArray(fields) ? 'a list' : typeof fields}`);
  }
  const flat: string[] = [];
  for (const [name, value] of Object.entries(fields)) flat.push(name, encodeValue(value));
  if (flat.length === 0) throw new TypeError(`${step}: fields must hold at least one field (a stream entry cannot be empty)`);
  return flat;
}

export function entryValue(entry: RawEntry): EntryValue {
  const fields: Record<string, unknown> = {};
  const flat = entry.fields;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name = flat[i]!;
    const value = decodeValue(flat[i + 1]!);
    // Defined, not assigned: a field named `__proto__` is a field like any other, not the prototype.
    if (name === '__proto__') Object.defineProperty(fields, name, { value, enumerable: true, writable: true, configurable: true });
    else fields[name] = value;
  }
  return { id: entry.id, fields };
}

/** The text size of an entry (its id and field texts): what a consumer's backlog grows by. */
export function entryBytes(entry: RawEntry): number {
  let bytes = entry.id.length;
  for (const text of entry.fields) bytes += Buffer.byteLength(text);
  return bytes;
}

/**
 * XRANGE's `count`: a whole number from 1 on. A count from a request that is not one fails the step
 * rather than reading the whole stream.
 */
export function countOperand(value: unknown, step: string): number {
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) throw new TypeError(`${step}: count must be a whole number from 1 on, got ${String(value)}`);
  return n;
}
