// Starlark values in JS, chosen for the hot paths: None null, bool boolean, int a JS number within
// ±(2^53-1) (never -0) else a BigInt (never inside that range), string a binary string of UTF-8 bytes
// (utf8.ts), float a boxed Float (1 and 1.0 stay distinct); every other value extends SValue.

export { EvalErr, SValue, type RuntimePos, type Value } from './value.js';
import { EvalErr, SValue, type RuntimePos, type Value } from './value.js';
import type { Thread } from '../thread.js';

export class Float extends SValue {
  constructor(public readonly v: number) {
    super();
  }
  get type() {
    return 'float';
  }
  override truth() {
    return this.v !== 0;
  }
}

export class Bytes extends SValue {
  /** Its hash-table key, made on first use (hash.ts): the value is immutable. */
  hashKey: string | undefined = undefined;
  constructor(public readonly s: string) {
    super();
  }
  get type() {
    return 'bytes';
  }
  override truth() {
    return this.s.length > 0;
  }
}

export class Tuple extends SValue {
  /**
   * Its hash-table key, made on first use (hash.ts): a hashable tuple holds only immutable values,
   * so the key never changes, and a large tuple used as a key again and again is walked once.
   */
  hashKey: string | undefined = undefined;
  constructor(public readonly elems: Value[]) {
    super();
  }
  get type() {
    return 'tuple';
  }
  override truth() {
    return this.elems.length > 0;
  }
  override freeze() {
    for (const e of this.elems) freezeValue(e);
  }
}

export class List extends SValue {
  frozen = false;
  itercount = 0;
  constructor(public elems: Value[]) {
    super();
  }
  get type() {
    return 'list';
  }
  override truth() {
    return this.elems.length > 0;
  }
  override freeze() {
    if (this.frozen) return;
    this.frozen = true;
    for (const e of this.elems) freezeValue(e);
  }
  checkMutable(verb: string): void {
    if (this.frozen) throw new EvalErr(`cannot ${verb} frozen list`);
    if (this.itercount > 0) throw new EvalErr(`cannot ${verb} list during iteration`);
  }
}

export type HashKey = string | number | bigint | boolean | null;

/**
 * An insertion-ordered hash table (dict and set). Keys are mapped to a JS
 * primitive "hash key" (see hashKey in ops.ts) so that a JS Map does the work;
 * for None, bool, int and str the hash key is the value itself, so `keys` only
 * holds the original key when it differs (floats, tuples, bytes, ...).
 */
export class HashTable {
  vals = new Map<HashKey, Value>();
  keys: Map<HashKey, Value> | null = null;
  frozen = false;
  itercount = 0;
  checkMutable(verb: string): void {
    if (this.frozen) throw new EvalErr(`cannot ${verb} frozen hash table`);
    if (this.itercount > 0) throw new EvalErr(`cannot ${verb} hash table during iteration`);
  }
  keyOf(hk: HashKey): Value {
    if (this.keys !== null) {
      const k = this.keys.get(hk);
      if (k !== undefined) return k;
    }
    return hk;
  }
  keyList(): Value[] {
    const out: Value[] = [];
    if (this.keys === null) for (const k of this.vals.keys()) out.push(k);
    else for (const k of this.vals.keys()) out.push(this.keyOf(k));
    return out;
  }
  get size() {
    return this.vals.size;
  }
}

export class Dict extends SValue {
  ht = new HashTable();
  /**
   * Whether its string keys also read as fields (`d.email` for `d["email"]`) where no dict method
   * has that name: set by the host on the request and step data it gives a script, as the
   * Starlark of hclapi (whose manifests svc reads) exposes them. A dict a script builds never is.
   */
  keysAsFields = false;
  get type() {
    return 'dict';
  }
  override truth() {
    return this.ht.vals.size > 0;
  }
  override freeze() {
    if (this.ht.frozen) return;
    this.ht.frozen = true;
    for (const [k, v] of this.ht.vals) {
      freezeValue(this.ht.keyOf(k));
      freezeValue(v);
    }
  }
  /** case-insensitive string keys (HeadersDict) */
  ci = false;
}

/** A dict whose string keys compare case-insensitively (HTTP headers). Keys keep their first spelling. */
export class HeadersDict extends Dict {
  constructor() {
    super();
    this.ci = true;
  }
}

export class SSet extends SValue {
  ht = new HashTable();
  get type() {
    return 'set';
  }
  override truth() {
    return this.ht.vals.size > 0;
  }
  override freeze() {
    if (this.ht.frozen) return;
    this.ht.frozen = true;
  }
}

/** A mutable box for a local variable captured by a nested function. */
export class Cell {
  constructor(public v: Value | undefined) {}
}

/** A required keyword-only parameter with no default. */
export const MANDATORY = Symbol('mandatory');

/** Compiled code of a def or lambda (immutable, shared by all closures of it). */
export interface FuncCode {
  name: string;
  file: string;
  pos: RuntimePos;
  nparams: number; // including *args and **kwargs slots
  nlocals: number;
  hasVarargs: boolean;
  hasKwargs: boolean;
  numKwonly: number;
  /** no *args, **kwargs or keyword-only parameters: positional calls bind directly */
  simpleParams: boolean;
  paramNames: string[];
  cellLocals: number[]; // indices of locals that live in Cells
  body: (fr: Frame) => Value;
}

export interface ModuleEnv {
  globals: (Value | undefined)[];
  globalNames: string[];
  predeclared: Map<string, Value>;
}

/**
 * One activation: locals (some in Cells), the module's globals, captured
 * cells, return value, and the thread it runs on. Compiled code reaches the
 * thread (step budget, limits, print, load) through its frame, so no run state
 * lives in module variables and a compiled program is never written to.
 */
export class Frame {
  ret: Value = null;
  readonly g: (Value | undefined)[];
  constructor(
    public l: (Value | undefined | Cell)[],
    public readonly env: ModuleEnv,
    public fv: Cell[],
    public fn: Func | null,
    public readonly th: Thread,
  ) {
    this.g = env.globals;
  }
}

export class Func extends SValue {
  constructor(
    public code: FuncCode,
    public defaults: (Value | typeof MANDATORY)[],
    public freevars: Cell[],
    public env: ModuleEnv,
  ) {
    super();
  }
  get type() {
    return 'function';
  }
  get name() {
    return this.code.name;
  }
  override freeze() {
    for (const d of this.defaults) if (d !== MANDATORY) freezeValue(d);
    for (const c of this.freevars) if (c.v !== undefined) freezeValue(c.v);
  }
}

export type Kwargs = [string, Value][] | null;
/**
 * A built-in's implementation. `th` is the calling thread: a built-in that
 * calls back into Starlark (sorted's key=, ...) passes it on, so the callback
 * runs under the same budget, depth and hooks. It comes last so that host
 * functions which need none of it can leave it out.
 */
export type BuiltinFn = (args: Value[], kwargs: Kwargs, self: Builtin, th: Thread) => Value;

export class Builtin extends SValue {
  constructor(
    public readonly name: string,
    public readonly fn: BuiltinFn,
    public readonly recv: Value | undefined = undefined,
  ) {
    super();
  }
  get type() {
    return 'builtin_function_or_method';
  }
  bindTo(recv: Value): Builtin {
    return new Builtin(this.name, this.fn, recv);
  }
}

/** A named bag of members (assert, json, math, ...). */
export class Module extends SValue {
  constructor(
    public readonly name: string,
    public readonly members: Map<string, Value>,
  ) {
    super();
  }
  get type() {
    return 'module';
  }
  override freeze() {
    for (const v of this.members.values()) freezeValue(v);
  }
}

/**
 * struct(**kwargs), as in starlark-go's starlarkstruct: immutable named fields.
 * `ctor` brands the struct (default: the string "struct"); `+` merges structs
 * of the same constructor.
 */
export class Struct extends SValue {
  private frozen = false;
  constructor(
    protected entries: Map<string, Value>,
    public readonly ctor: Value = 'struct',
  ) {
    super();
  }
  get type() {
    return 'struct';
  }
  /** Every field, in order (a LazyStruct converts those it has not yet). */
  get fields(): ReadonlyMap<string, Value> {
    return this.entries;
  }
  /** One field, or undefined (a LazyStruct converts only this one). */
  field(name: string): Value | undefined {
    return this.entries.get(name);
  }
  hasField(name: string): boolean {
    return this.entries.has(name);
  }
  fieldNames(): string[] {
    return [...this.entries.keys()];
  }
  /** `x["name"]` and `"name" in x` reach the fields (a host's struct-like value; struct() itself is not indexable). */
  get indexable(): boolean {
    return false;
  }
  override freeze() {
    if (this.frozen) return;
    this.frozen = true;
    for (const v of this.fields.values()) freezeValue(v);
  }
}

/** Host values callable from Starlark (e.g. constructors) implement this. */
export interface Callable {
  readonly name: string;
  callStar(args: Value[], kwargs: Kwargs, th: Thread): Value;
}

/** Bound under which a range's elements are computed in float arithmetic exactly (see RangeValue.small). */
const SMALL_RANGE = 2 ** 51;

/**
 * range(start, stop, step): bounds are ints of any size within signed 64 bits (JS numbers when
 * safe, BigInts beyond); the length is a safe integer (range() refuses longer ones), so every
 * element is exact.
 */
export class RangeValue extends SValue {
  /**
   * start, stop and step are numbers within ±2^51: then i * step (|i * step| < |stop - start| + |step|)
   * and start + i * step stay below 2^53, exact in float arithmetic; otherwise elements are computed
   * with BigInts.
   */
  readonly small: boolean;
  constructor(
    public readonly start: number | bigint,
    public readonly stop: number | bigint,
    public readonly step: number | bigint,
    public readonly len: number,
  ) {
    super();
    this.small =
      typeof start === 'number' &&
      typeof stop === 'number' &&
      typeof step === 'number' &&
      Math.abs(start) <= SMALL_RANGE &&
      Math.abs(stop) <= SMALL_RANGE &&
      Math.abs(step) <= SMALL_RANGE;
  }
  get type() {
    return 'range';
  }
  override truth() {
    return this.len > 0;
  }
  /** Element i (0 <= i < len). */
  at(i: number): number | bigint {
    if (this.small) return (this.start as number) + i * (this.step as number);
    return exactInt(BigInt(this.start) + BigInt(i) * BigInt(this.step));
  }
}

/** An int in its one representation: a number when safe, else a BigInt. */
export function exactInt(b: bigint): number | bigint {
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
}

export function freezeValue(v: Value): void {
  if (v !== null && typeof v === 'object') v.freeze();
}
