// The calling convention shared by compiled code and built-ins: calling
// functions on a thread, binding arguments to parameters (setArgs), recording
// frames and positions on errors as they unwind, converting JS stack
// overflows. The run state (steps, clock, depth, limits, print, load) is the
// Thread (thread.ts) passed to every call.

import { nearest } from './spell.js';
import { quote, typeName } from './values/repr.js';
import { dictSet } from './values/ops.js';
import { encodeUTF8 } from './values/utf8.js';
import { Builtin, Cell, Dict, EvalErr, Frame, Func, MANDATORY, Tuple, type Callable, type Kwargs, type RuntimePos, type Value } from './values/types.js';
import type { Thread } from './thread.js';

/** Annotate an error passing through an operation at position p, converting JS stack overflows. */
export function annotate(e: unknown, p: RuntimePos): never {
  if (e instanceof EvalErr) {
    if (e.pos === null) e.pos = p;
    throw e;
  }
  const conv = fromRangeError(e);
  if (conv !== null) {
    conv.pos = p;
    throw conv;
  }
  throw e;
}

/**
 * Convert a JS RangeError into a Starlark error: "Maximum call stack size
 * exceeded" becomes 'Starlark stack overflow'; "Invalid string/array length"
 * becomes a size error. Kept cheap (no regex): this may run near the stack limit.
 */
export function fromRangeError(e: unknown): EvalErr | null {
  if (!(e instanceof RangeError)) return null;
  const m = e.message;
  if (m.charCodeAt(0) === 73 /* 'I'nvalid ... length */) return new EvalErr(`size limit exceeded (${m})`, 'size');
  return new EvalErr('Starlark stack overflow', 'stack');
}

/** th.tick() at a loop: errors get the loop's position. */
export function tickAt(th: Thread, p: RuntimePos): void {
  try {
    th.tick();
  } catch (e) {
    annotate(e, p);
  }
}

/** Call fn on thread th (starlark-go's Call). */
export function callValue(th: Thread, fn: Value, args: Value[], kwargs: Kwargs): Value {
  if (fn instanceof Func) return callFunc(th, fn, args, kwargs);
  if (fn instanceof Builtin) {
    try {
      return fn.fn(args, kwargs, fn, th);
    } catch (e) {
      if (e instanceof EvalErr) {
        e.frames.push({ name: fn.name, pos: null });
      }
      throw e;
    }
  }
  if (fn !== null && typeof fn === 'object' && typeof (fn as unknown as Callable).callStar === 'function') {
    const c = fn as unknown as Callable;
    try {
      return c.callStar(args, kwargs, th);
    } catch (e) {
      if (e instanceof EvalErr) e.frames.push({ name: c.name, pos: null });
      throw e;
    }
  }
  throw new EvalErr(`invalid call of non-function (${typeName(fn)})`);
}

/** Call from compiled code at position p. */
export function callAt(th: Thread, fn: Value, args: Value[], kwargs: Kwargs, p: RuntimePos): Value {
  try {
    return callValue(th, fn, args, kwargs);
  } catch (e) {
    annotate(e, p);
  }
}

export function callFunc(th: Thread, fn: Func, args: Value[], kwargs: Kwargs): Value {
  const code = fn.code;
  if (++th.steps > th.checkAt) th.tick();
  if (th.depth >= th.maxDepth) {
    const e = new EvalErr('Starlark stack overflow', 'stack');
    e.frames.push({ name: code.name, pos: code.pos });
    throw e;
  }
  // activations are only tracked in the no-recursion dialect (active is null otherwise);
  // by code, not function value, so that a Y combinator cannot defeat the check
  const active = th.active;
  if (active !== null) {
    if (active.has(code)) throw new EvalErr(`function ${code.name} called recursively`);
    active.add(code);
  }
  const l: (Value | undefined | Cell)[] = new Array(code.nlocals);
  const fr = new Frame(l, fn.env, fn.freevars, fn, th);
  th.depth++;
  try {
    if (kwargs === null && args.length === code.nparams && code.simpleParams) {
      for (let i = 0; i < args.length; i++) l[i] = args[i];
    } else {
      setArgs(th, l, fn, args, kwargs);
    }
    const cells = code.cellLocals;
    for (let i = 0; i < cells.length; i++) l[cells[i]!] = new Cell(l[cells[i]!] as Value | undefined);
    return code.body(fr);
  } catch (e) {
    let err = e;
    if (!(e instanceof EvalErr)) {
      err = fromRangeError(e);
      if (err === null) throw e;
    }
    const ee = err as EvalErr;
    ee.frames.push({ name: code.name, pos: ee.pos ?? code.pos });
    ee.pos = null;
    throw ee;
  } finally {
    th.depth--;
    if (active !== null) active.delete(code);
  }
}

function plural(n: number): string {
  return n === 1 ? '' : 's';
}

/** Bind arguments to parameters: a port of starlark-go's setArgs. */
export function setArgs(th: Thread, l: (Value | undefined | Cell)[], fn: Func, args: Value[], kwargs: Kwargs): void {
  const code = fn.code;
  const name = code.name;
  let nparams = code.nparams;
  if (nparams === 0) {
    const n = args.length + (kwargs ? kwargs.length : 0);
    if (n > 0) throw new EvalErr(`function ${name} accepts no arguments (${n} given)`);
    return;
  }
  let kwdict: Dict | null = null;
  if (code.hasKwargs) {
    nparams--;
    kwdict = new Dict();
    l[nparams] = kwdict;
  }
  if (code.hasVarargs) nparams--;
  const nonkwonly = nparams - code.numKwonly;
  let n = args.length;
  if (args.length > nonkwonly) {
    if (!code.hasVarargs) {
      throw new EvalErr(
        `function ${name} accepts ${fn.defaults.length > code.numKwonly ? 'at most ' : ''}${nonkwonly} positional argument${plural(nonkwonly)} (${args.length} given)`,
      );
    }
    n = nonkwonly;
  }
  for (let i = 0; i < n; i++) l[i] = args[i];
  if (code.hasVarargs) l[nparams] = new Tuple(args.slice(n));
  if (kwargs) {
    for (const [k, v] of kwargs) {
      const i = code.paramNames.indexOf(k);
      if (i >= 0 && i < nparams) {
        if (l[i] !== undefined) throw new EvalErr(`function ${name} got multiple values for parameter ${quote(k)}`);
        l[i] = v;
        continue;
      }
      if (kwdict === null) {
        let msg = `function ${name} got an unexpected keyword argument ${quote(k)}`;
        const near = nearest(k, code.paramNames.slice(0, nparams));
        if (near) msg += ` (did you mean ${near}?)`;
        throw new EvalErr(msg);
      }
      const old = kwdict.ht.size;
      dictSet(kwdict, encodeUTF8(k), v, th); // keyword names are identifiers (JS text); dict keys are Starlark strings
      if (kwdict.ht.size === old) throw new EvalErr(`function ${name} got multiple values for parameter ${quote(k)}`);
    }
  }
  if (n < nparams || code.numKwonly > 0) {
    const m = nparams - fn.defaults.length;
    const missing: string[] = [];
    let i: number;
    for (i = n; i < m; i++) if (l[i] === undefined) missing.push(code.paramNames[i]!);
    for (; i < nparams; i++) {
      if (l[i] === undefined) {
        const d = fn.defaults[i - m]!;
        if (d === MANDATORY) {
          missing.push(code.paramNames[i]!);
          continue;
        }
        l[i] = d;
      }
    }
    if (missing.length > 0) {
      throw new EvalErr(`function ${name} missing ${missing.length} argument${missing.length > 1 ? 's' : ''} (${missing.join(', ')})`);
    }
  }
}
