/**
 * Values are plain JSON-like JS values: null, boolean, number, string, arrays and plain objects.
 * This file holds what HCL's type system gives those values: type names for messages, equality,
 * and the primitive conversions HCL applies implicitly (number <-> string, bool <-> string).
 *
 * `undefined` never escapes an evaluation: every lookup maps it to null.
 */

export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

/** True for plain objects (HCL objects/maps); arrays and null are excluded. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The HCL type name of a value, as used in error messages ("string", "number", "tuple", "object"...). */
export function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'bool';
    case 'object':
      return Array.isArray(v) ? 'tuple' : v instanceof Date ? 'string' : 'object';
    default:
      return typeof v;
  }
}

/**
 * HCL equality: same type and same value, recursively; false on any type mismatch ("1" != 1).
 * Dates (which database drivers return) compare by instant. Structures are walked with an explicit
 * stack: request data can nest deeper than the call stack allows (JSON.parse does not recurse).
 */
export function equals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return primitiveEquals(a, b);
  const pending: unknown[] = [a, b];
  while (pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) {
      if (!primitiveEquals(x, y)) return false;
      continue;
    }
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) pending.push(x[i], y[i]);
      continue;
    }
    if (Array.isArray(y)) return false;
    if (x instanceof Date || y instanceof Date) {
      if (!(x instanceof Date && y instanceof Date && x.getTime() === y.getTime())) return false;
      continue;
    }
    const xk = Object.keys(x);
    if (xk.length !== Object.keys(y).length) return false;
    for (const k of xk) {
      if (!Object.hasOwn(y, k)) return false;
      pending.push((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]);
    }
  }
  return true;
}

function primitiveEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined) return b === null;
  if (b === undefined) return a === null;
  // NaN never occurs (arithmetic refuses non-finite results), so === is enough for other primitives.
  return typeof a === 'string' && typeof b === 'string' && sameString(a, b);
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * HCL strings are equal when their NFC normalizations are ("ñ" precomposed equals "n" + combining
 * tilde). Only reached when the strings differ as written; ASCII strings need no normalization.
 */
function sameString(a: string, b: string): boolean {
  if (!NON_ASCII.test(a) && !NON_ASCII.test(b)) return false;
  return a.normalize('NFC') === b.normalize('NFC');
}

/**
 * A number as HCL writes it when converting to string: shortest round-trip digits, never an exponent
 * (HCL formats with big.Float.Text('f', -1)): 1e21 -> "1000000000000000000000", 1e-7 -> "0.0000001".
 */
export function formatNumber(n: number): string {
  const s = String(n);
  if (s.indexOf('e') < 0) return s === '-0' ? '0' : s;
  return expandExponent(s);
}

function expandExponent(s: string): string {
  let sign = '';
  if (s[0] === '-') {
    sign = '-';
    s = s.slice(1);
  }
  const [mant, expText] = s.split('e') as [string, string];
  const exp = Number(expText);
  const dot = mant.indexOf('.');
  const digits = dot < 0 ? mant : mant.slice(0, dot) + mant.slice(dot + 1);
  const intLen = (dot < 0 ? mant.length : dot) + exp;
  if (intLen <= 0) return sign + '0.' + '0'.repeat(-intLen) + digits;
  if (intLen >= digits.length) return sign + digits + '0'.repeat(intLen - digits.length);
  return sign + digits.slice(0, intLen) + '.' + digits.slice(intLen);
}

/** Decimal number syntax HCL accepts when converting a string to a number. */
const NUMBER_SYNTAX = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** A string converted to a number as HCL does, or undefined when it is not a number. */
export function parseNumber(s: string): number | undefined {
  if (!NUMBER_SYNTAX.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The string a primitive converts to (HCL's implicit conversion), or undefined when the value
 * has no string form (null, tuples, objects). Dates become RFC 3339 text: drivers return them for
 * timestamp columns and a JSON body would carry that same text.
 */
export function primitiveToString(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return formatNumber(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    case 'object':
      return v instanceof Date ? v.toISOString() : undefined;
    default:
      return undefined;
  }
}

/** A value converted to a number as HCL does (numbers, numeric strings), or undefined. */
export function primitiveToNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return parseNumber(v);
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

/** A value converted to a bool as HCL does (bools, "true", "false"), or undefined. */
export function primitiveToBool(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return undefined;
}

/** Object keys in the order HCL iterates them: lexicographic. */
export function sortedKeys(o: object): string[] {
  return Object.keys(o).sort();
}

/**
 * Deep-freezes a value folded at boot: a constant is shared by every request, so a consumer that
 * mutated it would leak one request's data into the next. Freezing turns that into a loud TypeError.
 * Iterative, like equals(): `json_decode` of a deeply nested constant must not overflow the stack.
 */
export function deepFreeze<T>(v: T): T {
  const pending: unknown[] = [v];
  while (pending.length > 0) {
    const x = pending.pop();
    if (typeof x !== 'object' || x === null || Object.isFrozen(x)) continue;
    Object.freeze(x);
    if (Array.isArray(x)) for (const item of x) pending.push(item);
    else for (const k of Object.keys(x)) pending.push((x as Record<string, unknown>)[k]);
  }
  return v;
}

/** Sets a key on a plain object, safely even for "__proto__". */
export function setKey(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}
