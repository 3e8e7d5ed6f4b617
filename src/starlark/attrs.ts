// Attribute access (x.name) and method calls (x.name(...)). Methods of the
// built-in types live in per-type tables registered by methods/*.ts; a call
// x.name(args) is dispatched straight to the table entry without allocating a
// bound method value.

import { nearest } from './spell.js';
import { annotate, callValue } from './runtime.js';
import { str, typeName } from './values/repr.js';
import { Builtin, Bytes, Dict, EvalErr, List, Module, SSet, Struct, type Kwargs, type RuntimePos, type Value } from './values/types.js';
import type { Thread } from './thread.js';

/** A method of a built-in type; th is the calling thread, as for built-ins. */
// biome-ignore lint/suspicious/noExplicitAny: each method is registered on its own receiver type
export type Method = (recv: any, args: Value[], kwargs: Kwargs, name: string, th: Thread) => Value;

const STRING = new Map<string, Method>(),
  LIST = new Map<string, Method>(),
  DICT = new Map<string, Method>();
const SET = new Map<string, Method>(),
  BYTES = new Map<string, Method>();
const tables = new Map<string, Map<string, Method>>([
  ['string', STRING],
  ['list', LIST],
  ['dict', DICT],
  ['set', SET],
  ['bytes', BYTES],
]);

export function registerMethods(type: string, methods: Record<string, Method>): void {
  const t = tables.get(type);
  if (!t) throw new Error(`no method table for ${type}`);
  const linear = LINEAR_IN_RECEIVER[type];
  // Methods of str and bytes are charged where they are called (callMethod), not by a wrapper: one
  // wrapper's code serving every method made its call megamorphic (about 5 % of a short script).
  for (const [k, v] of Object.entries(methods)) t.set(k, linear?.has(k) ? chargedBySize(v) : v);
}

/** Methods of dict and set whose work grows with the receiver (an iterable argument is charged as it is copied). */
const LINEAR_IN_RECEIVER: Record<string, ReadonlySet<string>> = {
  dict: new Set(['items', 'keys', 'values']),
  set: new Set(['difference', 'intersection', 'isdisjoint', 'issubset', 'issuperset', 'symmetric_difference', 'union']),
};

/** A method charged by the receiver's size: one step per 64 entries. */
function chargedBySize(m: Method): Method {
  return (recv: Dict | SSet, args, kwargs, name, th) => {
    const n = recv.ht.size;
    if (n > 64) th.chargeSteps(n);
    return m(recv, args, kwargs, name, th);
  };
}

/**
 * Charges a method of str or bytes by the text it may scan: the receiver and the string arguments,
 * one step per KiB once they pass 1 KiB (find, count, replace, split, strip, lower... are linear in
 * them). Charged before the work, so a loop calling them on long strings reaches the clock.
 */
function chargeText(th: Thread, recv: string | Bytes, args: Value[]): void {
  let n = typeof recv === 'string' ? recv.length : recv.s.length;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (typeof a === 'string') n += a.length;
  }
  if (n > 1024) th.chargeSteps(n >> 4);
}

/** Calls method m of x, found in x's method table: every call of a method goes through here. */
function callMethod(th: Thread, m: Method, x: Value, name: string, args: Value[], kwargs: Kwargs): Value {
  if (typeof x === 'string' || x instanceof Bytes) chargeText(th, x, args);
  return m(x, args, kwargs, name, th);
}

export function methodTable(x: Value): Map<string, Method> | undefined {
  if (typeof x === 'string') return STRING;
  if (x instanceof List) return LIST;
  if (x instanceof Dict) return DICT;
  if (x instanceof SSet) return SET;
  if (x instanceof Bytes) return BYTES;
  return undefined;
}

/** Host-defined values with fields implement this (like starlark.HasAttrs). */
export interface HasAttrs {
  attr(name: string): Value | undefined;
  attrNames(): string[];
}

function hasAttrs(x: Value): x is Value & HasAttrs {
  return x !== null && typeof x === 'object' && typeof (x as unknown as HasAttrs).attr === 'function';
}

/**
 * Methods in the spec that starlark-go (whose dir() output the conformance
 * tests check) does not have: callable, but not listed by dir().
 */
const UNLISTED = new Set(['isdisjoint']);

export function attrNames(x: Value): string[] {
  const t = methodTable(x);
  if (t) return [...t.keys()].filter((k) => !UNLISTED.has(k)).sort();
  if (x instanceof Module) return [...x.members.keys()].sort();
  if (x instanceof Struct) return x.fieldNames().sort();
  if (hasAttrs(x)) return x.attrNames().slice().sort();
  return [];
}

function noAttr(x: Value, name: string): never {
  let msg = `${typeName(x)} has no .${name} field or method`;
  const n = nearest(name, attrNames(x));
  if (n) msg += ` (did you mean .${n}?)`;
  throw new EvalErr(msg);
}

export function getAttr(x: Value, name: string): Value {
  const t = methodTable(x);
  if (t) {
    const m = t.get(name);
    if (m) return new Builtin(name, (args, kwargs, _self, th) => callMethod(th, m, x, name, args, kwargs), x);
    if (x instanceof Dict && x.keysAsFields) {
      const v = x.ht.vals.get(name);
      if (v !== undefined) return v;
    }
    return noAttr(x, name);
  }
  if (x instanceof Module) {
    const v = x.members.get(name);
    if (v !== undefined) return v;
  } else if (x instanceof Struct) {
    const v = x.field(name);
    if (v !== undefined) return v;
    let msg = `${x.ctor === 'struct' ? '' : str(x.ctor) + ' '}struct has no .${name} attribute`;
    const n = nearest(name, attrNames(x));
    if (n) msg += ` (did you mean .${n}?)`;
    throw new EvalErr(msg);
  } else if (hasAttrs(x)) {
    const v = x.attr(name);
    if (v !== undefined) return v;
  }
  return noAttr(x, name);
}

export function hasAttr(x: Value, name: string): boolean {
  const t = methodTable(x);
  if (t) return t.has(name);
  if (x instanceof Module) return x.members.has(name);
  if (x instanceof Struct) return x.hasField(name);
  if (hasAttrs(x)) return x.attr(name) !== undefined;
  return false;
}

export function getAttrAt(x: Value, name: string, p: RuntimePos): Value {
  try {
    return getAttr(x, name);
  } catch (e) {
    annotate(e, p);
  }
}

/** Call a built-in method found in a method table, recording its frame on error. */
export function callMethodAt(th: Thread, m: Method, x: Value, name: string, args: Value[], kwargs: Kwargs, p: RuntimePos): Value {
  try {
    return callMethod(th, m, x, name, args, kwargs);
  } catch (e) {
    if (e instanceof EvalErr) e.frames.push({ name, pos: null });
    annotate(e, p);
  }
}

/** x.name(args...) */
export function invokeAt(th: Thread, x: Value, name: string, args: Value[], kwargs: Kwargs, p: RuntimePos, dotPos: RuntimePos): Value {
  const t = methodTable(x);
  if (t) {
    const m = t.get(name);
    if (m) {
      try {
        return callMethod(th, m, x, name, args, kwargs);
      } catch (e) {
        if (e instanceof EvalErr) e.frames.push({ name, pos: null });
        annotate(e, p);
      }
    }
  }
  const f = getAttrAt(x, name, dotPos);
  try {
    return callValue(th, f, args, kwargs);
  } catch (e) {
    annotate(e, p);
  }
}

export function setField(x: Value, name: string, v: Value): void {
  if (x !== null && typeof x === 'object' && typeof (x as unknown as { setField?: unknown }).setField === 'function') {
    (x as unknown as { setField(n: string, v: Value): void }).setField(name, v);
    return;
  }
  throw new EvalErr(`can't assign to .${name} field of ${typeName(x)}`);
}
