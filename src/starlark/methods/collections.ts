// Methods of list, dict and set values (spec: "List methods", "Dictionary
// methods", "Set methods"). Errors are prefixed with the method name, like
// starlark-go's nameErr.

import { registerMethods, type Method } from '../attrs.js';
import { positional, paramErr, wantInt } from '../builtins/args.js';
import { updateDict } from '../builtins/universe.js';
import * as ops from '../values/ops.js';
import { typeName } from '../values/repr.js';
import { type Dict, EvalErr, List, SSet, Tuple, type Kwargs, type Value } from '../values/types.js';
import type { Thread } from '../thread.js';

function named<T>(name: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof EvalErr && !e.msg.startsWith(name + ':')) throw new EvalErr(`${name}: ${e.msg}`, e.kind);
    throw e;
  }
}

function clampIndex(name: string, v: Value | undefined, dflt: number, what: string, n: number): number {
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'number') throw new EvalErr(`${name}: invalid ${what} index: got ${typeName(v)}, want int`);
  let r = v < 0 ? v + n : v;
  if (r < 0) r = 0;
  else if (r > n) r = n;
  return r;
}

function clampIndices(name: string, st: Value | undefined, en: Value | undefined, n: number): [number, number] {
  return [clampIndex(name, st, 0, 'start', n), clampIndex(name, en, n, 'end', n)];
}

const listMethods: Record<string, Method> = {
  append(l: List, args, kwargs, name, th) {
    if (args.length !== 1 || kwargs !== null) positional(name, args, kwargs, 1, 1);
    if (l.frozen || l.itercount > 0) named(name, () => l.checkMutable('append to'));
    if (l.elems.length >= 65536 && (l.elems.length & 0xfff) === 0) th.checkElems(l.elems.length + 4096);
    l.elems.push(args[0]!);
    return null;
  },
  clear(l: List, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    named(name, () => l.checkMutable('clear'));
    l.elems.length = 0;
    return null;
  },
  extend(l: List, args, kwargs, name, th) {
    const [x] = positional(name, args, kwargs, 1, 1);
    if (l.frozen || l.itercount > 0) named(name, () => l.checkMutable('extend'));
    if (!ops.isIterable(x!)) throw paramErr(name, 1, `got ${typeName(x!)}, want iterable`);
    const add = ops.toArray(x!, th);
    th.checkElems(l.elems.length + add.length);
    th.chargeAlloc(8 * add.length);
    for (const v of add) l.elems.push(v);
    return null;
  },
  index(l: List, args, kwargs, name, th) {
    const [x, st, en] = positional(name, args, kwargs, 1, 3);
    const [start, end] = clampIndices(name, st, en, l.elems.length);
    if (end - start > 64) th.chargeSteps(end - start);
    for (let i = start; i < end; i++) if (named(name, () => ops.equals(l.elems[i]!, x!, th))) return i;
    throw new EvalErr(`${name}: value not in list`);
  },
  insert(l: List, args, kwargs, name, th) {
    const [iv, x] = positional(name, args, kwargs, 2, 2);
    let i = wantInt(name, 1, iv!);
    named(name, () => l.checkMutable('insert into'));
    const n = l.elems.length;
    if (i < 0) i += n;
    if (i >= n) l.elems.push(x!);
    else {
      if (n > 64) th.chargeSteps(n - Math.max(i, 0)); // the elements moved
      l.elems.splice(i < 0 ? 0 : i, 0, x!);
    }
    return null;
  },
  pop(l: List, args, kwargs, name, th) {
    const [iv] = positional(name, args, kwargs, 0, 1);
    const n = l.elems.length;
    let i = iv === undefined ? n - 1 : wantInt(name, 1, iv);
    const orig = i;
    if (i < 0) i += n;
    if (i < 0 || i >= n) {
      throw new EvalErr(n === 0 ? `${name}: index ${orig} out of range: empty list` : `${name}: list index ${orig} out of range [${-n}:${n - 1}]`);
    }
    named(name, () => l.checkMutable('pop from'));
    if (n - i > 64) th.chargeSteps(n - i); // the elements moved
    return l.elems.splice(i, 1)[0]!;
  },
  remove(l: List, args, kwargs, name, th) {
    const [x] = positional(name, args, kwargs, 1, 1);
    named(name, () => l.checkMutable('remove from'));
    if (l.elems.length > 64) th.chargeSteps(l.elems.length);
    for (let i = 0; i < l.elems.length; i++) {
      if (named(name, () => ops.equals(l.elems[i]!, x!, th))) {
        l.elems.splice(i, 1);
        return null;
      }
    }
    throw new EvalErr(`${name}: element not found`);
  },
};

const dictMethods: Record<string, Method> = {
  clear(d: Dict, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    named(name, () => d.ht.checkMutable('clear'));
    d.ht.vals.clear();
    d.ht.keys = null;
    return null;
  },
  get(d: Dict, args, kwargs, name) {
    if (kwargs !== null || args.length < 1 || args.length > 2) positional(name, args, kwargs, 1, 2);
    const k = args[0]!;
    const v = typeof k === 'string' && !d.ci ? d.ht.vals.get(k) : named(name, () => ops.dictGet(d, k));
    if (v !== undefined) return v;
    return args.length > 1 ? args[1]! : null;
  },
  items(d: Dict, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    const out: Value[] = [];
    for (const [hk, v] of d.ht.vals) out.push(new Tuple([d.ht.keyOf(hk), v]));
    return new List(out);
  },
  keys(d: Dict, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    return new List(d.ht.keyList());
  },
  pop(d: Dict, args, kwargs, name) {
    const [k, dflt] = positional(name, args, kwargs, 1, 2);
    const v = named(name, () => ops.dictDelete(d, k!));
    if (v !== undefined) return v;
    if (dflt !== undefined) return dflt;
    throw new EvalErr(`${name}: missing key`);
  },
  popitem(d: Dict, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    const first = d.ht.vals.keys().next();
    if (first.done) throw new EvalErr(`${name}: empty dict`);
    const k = d.ht.keyOf(first.value);
    const v = named(name, () => ops.dictDelete(d, k))!;
    return new Tuple([k, v]);
  },
  setdefault(d: Dict, args, kwargs, name, th) {
    const [k, dflt] = positional(name, args, kwargs, 1, 2);
    const v = named(name, () => ops.dictGet(d, k!));
    if (v !== undefined) return v;
    const dv = dflt === undefined ? null : dflt;
    named(name, () => ops.dictSet(d, k!, dv, th));
    return dv;
  },
  update(d: Dict, args, kwargs, name, th) {
    if (args.length > 1) throw new EvalErr(`update: got ${args.length} arguments, want at most 1`);
    named(name, () => updateDict(d, args, kwargs, th));
    return null;
  },
  values(d: Dict, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    return new List([...d.ht.vals.values()]);
  },
};

function iterArg(name: string, i: number, v: Value, th: Thread): Value[] {
  if (!ops.isIterable(v)) throw new EvalErr(`${name}: argument #${i} is not iterable: ${typeName(v)}`);
  return ops.toArray(v, th);
}

function noKwargs(name: string, kwargs: Kwargs): void {
  if (kwargs && kwargs.length > 0) throw new EvalErr(`${name}: does not accept keyword arguments`);
}

function cloneSet(s: SSet): SSet {
  const r = new SSet();
  ops.copyHT(s.ht, r.ht);
  return r;
}

const setMethods: Record<string, Method> = {
  add(s: SSet, args, kwargs, name, th) {
    const [x] = positional(name, args, kwargs, 1, 1);
    named(name, () => s.ht.checkMutable('insert into'));
    named(name, () => ops.setAdd(s, x!, th));
    return null;
  },
  clear(s: SSet, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    if (s.ht.size === 0) return null;
    named(name, () => s.ht.checkMutable('clear'));
    s.ht.vals.clear();
    s.ht.keys = null;
    return null;
  },
  difference(s: SSet, args, kwargs, name, th) {
    noKwargs(name, kwargs);
    const r = cloneSet(s);
    for (let i = 0; i < args.length; i++) {
      for (const x of iterArg(name, i + 1, args[i]!, th)) {
        const hk = named(name, () => ops.hashKey(x));
        r.ht.vals.delete(hk);
        r.ht.keys?.delete(hk);
      }
    }
    return r;
  },
  discard(s: SSet, args, kwargs, name) {
    const [x] = positional(name, args, kwargs, 1, 1);
    named(name, () => s.ht.checkMutable('delete from'));
    const hk = named(name, () => ops.hashKey(x!));
    if (!s.ht.vals.has(hk)) return null;
    s.ht.vals.delete(hk);
    s.ht.keys?.delete(hk);
    return null;
  },
  intersection(s: SSet, args, kwargs, name, th) {
    noKwargs(name, kwargs);
    let r = cloneSet(s);
    for (let i = 0; i < args.length; i++) {
      const other = ops.newSet(iterArg(name, i + 1, args[i]!, th), th);
      const next = new SSet();
      for (const [hk, k] of r.ht.vals) if (other.ht.vals.has(hk)) ops.setAdd(next, k, th);
      r = next;
    }
    return r;
  },
  isdisjoint(s: SSet, args, kwargs, name, th) {
    const [x] = positional(name, args, kwargs, 1, 1);
    for (const e of iterArg(name, 1, x!, th)) if (named(name, () => ops.setHas(s, e))) return false;
    return true;
  },
  issubset(s: SSet, args, kwargs, name, th) {
    const [x] = positional(name, args, kwargs, 1, 1);
    const other = named(name, () => ops.newSet(iterArg(name, 1, x!, th), th));
    for (const hk of s.ht.vals.keys()) if (!other.ht.vals.has(hk)) return false;
    return true;
  },
  issuperset(s: SSet, args, kwargs, name, th) {
    const [x] = positional(name, args, kwargs, 1, 1);
    for (const e of iterArg(name, 1, x!, th)) if (!named(name, () => ops.setHas(s, e))) return false;
    return true;
  },
  pop(s: SSet, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    const first = s.ht.vals.entries().next();
    if (first.done) throw new EvalErr(`${name}: empty set`);
    named(name, () => s.ht.checkMutable('delete from'));
    const [hk, k] = first.value;
    s.ht.vals.delete(hk);
    s.ht.keys?.delete(hk);
    return k;
  },
  remove(s: SSet, args, kwargs, name) {
    const [x] = positional(name, args, kwargs, 1, 1);
    const hk = named(name, () => ops.hashKey(x!));
    named(name, () => s.ht.checkMutable('delete from'));
    if (!s.ht.vals.has(hk)) throw new EvalErr(`${name}: missing key`);
    s.ht.vals.delete(hk);
    s.ht.keys?.delete(hk);
    return null;
  },
  symmetric_difference(s: SSet, args, kwargs, name, th) {
    const [x] = positional(name, args, kwargs, 1, 1);
    const other = named(name, () => ops.newSet(iterArg(name, 1, x!, th), th));
    const r = new SSet();
    for (const [hk, k] of s.ht.vals) if (!other.ht.vals.has(hk)) ops.setAdd(r, k, th);
    for (const [hk, k] of other.ht.vals) if (!s.ht.vals.has(hk)) ops.setAdd(r, k, th);
    return r;
  },
  union(s: SSet, args, kwargs, name, th) {
    noKwargs(name, kwargs);
    const r = cloneSet(s);
    for (let i = 0; i < args.length; i++) for (const x of iterArg(name, i + 1, args[i]!, th)) named(name, () => ops.setAdd(r, x, th));
    return r;
  },
  update(s: SSet, args, kwargs, name, th) {
    noKwargs(name, kwargs);
    named(name, () => s.ht.checkMutable('insert into'));
    for (let i = 0; i < args.length; i++) for (const x of iterArg(name, i + 1, args[i]!, th)) named(name, () => ops.setAdd(s, x, th));
    return null;
  },
};

registerMethods('list', listMethods);
registerMethods('dict', dictMethods);
registerMethods('set', setMethods);
