// Hashing of values and the dict/set hash-table operations built on it.

import * as I from './int.js';
import { typeName } from './repr.js';
import type { Thread } from '../thread.js';
import { Builtin, Bytes, type Dict, EvalErr, Float, Func, type HashTable, SSet, Struct, Tuple, type HashKey, type Value } from './types.js';

// ---------------------------------------------------------------- hashing

// Identity of functions and host values, like an address: shared by every
// thread (a function kept in a frozen global dict must hash the same in every
// later call), so it is process state, not run state.
const ids = new WeakMap<object, number>();
let nextId = 1;
function identity(o: object): number {
  let id = ids.get(o);
  if (id === undefined) {
    id = nextId++;
    ids.set(o, id);
  }
  return id;
}

function unhashable(v: Value): never {
  const t = typeName(v);
  if (t === 'list' || t === 'dict' || t === 'set') throw new EvalErr(`unhashable type: ${t}`);
  throw new EvalErr(`unhashable: ${t}`);
}

/**
 * Map a hashable value to a JS primitive such that two values are equal in
 * Starlark iff their keys are equal (SameValueZero). Strings, ints, bools and
 * None map to themselves; binary strings never contain chars > 0xFF, so keys
 * of composite values start with such a char and cannot collide with them.
 */
export function hashKey(v: Value): HashKey {
  switch (typeof v) {
    case 'string':
    case 'number':
    case 'bigint':
    case 'boolean':
      return v;
  }
  if (v === null) return null;
  if (v instanceof Float) {
    const f = v.v;
    if (Number.isInteger(f)) return I.floatToInt(f);
    return f;
  }
  if (v instanceof Tuple) {
    v.hashKey ??= '\u0100' + tupleKey(v);
    return v.hashKey;
  }
  if (v instanceof Bytes) {
    v.hashKey ??= '\u0102' + v.s;
    return v.hashKey;
  }
  if (v instanceof Func || v instanceof Builtin) return '\u0101' + identity(v);
  if (v instanceof Struct) {
    let s = '\u0103';
    for (const k of [...v.fields.keys()].sort()) s += k.length + ':' + k + '=' + elemKey(v.fields.get(k)!);
    return s;
  }
  if ((v as { hashable?: boolean }).hashable === true) return '\u0105' + identity(v);
  return unhashable(v);
}

function elemKey(v: Value): string {
  const k = hashKey(v);
  switch (typeof k) {
    case 'string':
      return 's' + k.length + ':' + k;
    case 'number':
      return (Number.isInteger(k) ? 'i' : 'f') + k + ';';
    case 'bigint':
      return 'i' + k + ';';
    case 'boolean':
      return k ? 'T' : 'F';
  }
  return 'N';
}

function tupleKey(t: Tuple): string {
  let s = '(';
  for (const e of t.elems) s += elemKey(e);
  return s + ')';
}

// ---------------------------------------------------------------- hash tables

export function htKey(d: Dict, k: Value): HashKey {
  if (typeof k === 'string') return d.ci ? k.toLowerCase() : k;
  return hashKey(k);
}

export function dictGet(d: Dict, k: Value): Value | undefined {
  const hk = typeof k === 'string' && !d.ci ? k : htKey(d, k);
  return d.ht.vals.get(hk);
}

/**
 * d[k] = v. The thread enforces the element limit on growth; the host passes
 * null when it builds data outside a run (conversion has its own limits).
 */
export function dictSet(d: Dict, k: Value, v: Value, th: Thread | null): void {
  const ht = d.ht;
  if (ht.frozen || ht.itercount > 0) ht.checkMutable('insert into');
  const hk = typeof k === 'string' && !d.ci ? k : htKey(d, k);
  if (hk !== k && !ht.vals.has(hk)) {
    if (ht.keys === null) ht.keys = new Map();
    ht.keys.set(hk, k);
  }
  if (ht.vals.size >= 1024 && th !== null && !ht.vals.has(hk)) th.checkElems(ht.vals.size + 1);
  ht.vals.set(hk, v);
}

export function dictDelete(d: Dict, k: Value): Value | undefined {
  const ht = d.ht;
  ht.checkMutable('delete from');
  const hk = htKey(d, k);
  const v = ht.vals.get(hk);
  if (v !== undefined) {
    ht.vals.delete(hk);
    ht.keys?.delete(hk);
  }
  return v;
}

/** Add k to s; th enforces the element limit as in dictSet. */
export function setAdd(s: SSet, k: Value, th: Thread | null): void {
  const ht = s.ht;
  ht.checkMutable('insert into');
  const hk = hashKey(k);
  if (!ht.vals.has(hk)) {
    if (hk !== k) {
      if (ht.keys === null) ht.keys = new Map();
      ht.keys.set(hk, k);
    }
    if (ht.vals.size >= 1024 && th !== null) th.checkElems(ht.vals.size + 1);
    ht.vals.set(hk, k);
  }
}

export function setHas(s: SSet, k: Value): boolean {
  return s.ht.vals.has(hashKey(k));
}

export function newSet(elems: Iterable<Value>, th: Thread): SSet {
  const s = new SSet();
  let n = 0;
  for (const e of elems) {
    // hashing is charged as it happens (one step per 64 elements), so the clock is consulted while a big set is built
    if (++n === 1024) {
      th.chargeSteps(n);
      n = 0;
    }
    setAdd(s, e, th);
  }
  return s;
}

export function copyHT(src: HashTable, dst: HashTable): void {
  for (const [hk, v] of src.vals) dst.vals.set(hk, v);
  if (src.keys !== null) {
    if (dst.keys === null) dst.keys = new Map();
    for (const [hk, k] of src.keys) dst.keys.set(hk, k);
  }
}
