// The predeclared `math` module, following starlark-go's lib/math.

import { positional, paramErr } from './builtins/args.js';
import * as I from './values/int.js';
import { typeName } from './values/repr.js';
import { Builtin, EvalErr, Float, Module, type Value } from './values/types.js';

function num(name: string, i: number, v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Float) return v.v;
  throw paramErr(name, i, `got ${typeName(v)}, want float or int`);
}

function goMod(x: number, y: number): number {
  if (y === 0 || !Number.isFinite(x) || Number.isNaN(y)) return NaN;
  return x % y; // JS % has Go's math.Mod semantics (sign of x)
}

/** IEEE 754 remainder: x - n*y where n is x/y rounded to nearest even. */
function remainder(x: number, y: number): number {
  if (Number.isNaN(x) || Number.isNaN(y) || !Number.isFinite(x) || y === 0) return NaN;
  if (!Number.isFinite(y)) return x;
  const q = x / y;
  let n = Math.round(q);
  if (Math.abs(q - Math.trunc(q)) === 0.5) n = 2 * Math.round(q / 2);
  const r = x - n * y;
  return r === 0 ? (x < 0 ? -0 : 0) : r;
}

/** Lanczos approximation of the gamma function. */
function gamma(x: number): number {
  if (x === 0) return Object.is(x, -0) ? -Infinity : Infinity;
  if (Number.isInteger(x) && x < 0) return NaN;
  if (x === Infinity) return Infinity;
  if (Number.isNaN(x) || x === -Infinity) return NaN;
  if (Number.isInteger(x) && x > 0 && x < 171) {
    let r = 1;
    for (let i = 2; i < x; i++) r *= i;
    return r;
  }
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * gamma(1 - x));
  const g = 7;
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  x -= 1;
  let a = c[0]!;
  const t = x + g + 0.5;
  for (let i = 1; i < g + 2; i++) a += c[i]! / (x + i);
  return Math.sqrt(2 * Math.PI) * t ** (x + 0.5) * Math.exp(-t) * a;
}

function goRound(x: number): number {
  // Go's math.Round: half away from zero
  if (!Number.isFinite(x)) return x;
  const r = Math.sign(x) * Math.round(Math.abs(x));
  return r === 0 ? (Object.is(x, -0) || x < 0 ? -0 : 0) : r;
}

export function makeMathModule(): Module {
  const m = new Map<string, Value>();
  const unary = (name: string, f: (x: number) => number) =>
    m.set(
      name,
      new Builtin(name, (args, kwargs) => {
        const [x] = positional(name, args, kwargs, 1, 1);
        return new Float(f(num(name, 1, x!)));
      }),
    );
  const binary = (name: string, f: (x: number, y: number) => number) =>
    m.set(
      name,
      new Builtin(name, (args, kwargs) => {
        const [x, y] = positional(name, args, kwargs, 2, 2);
        return new Float(f(num(name, 1, x!), num(name, 2, y!)));
      }),
    );
  const rounding = (name: string, f: (x: number) => number) =>
    m.set(
      name,
      new Builtin(name, (args, kwargs) => {
        const [x] = positional(name, args, kwargs, 1, 1);
        if (typeof x === 'number' || typeof x === 'bigint') return x;
        if (x instanceof Float) {
          const r = f(x.v);
          if (!Number.isFinite(r)) throw new EvalErr(`cannot convert float ${Number.isNaN(r) ? 'NaN' : 'infinity'} to integer`);
          return I.floatToInt(r);
        }
        throw new EvalErr(`got ${typeName(x!)}, want float or int`);
      }),
    );
  rounding('ceil', Math.ceil);
  binary('copysign', (x, y) => (y < 0 || Object.is(y, -0) ? -Math.abs(x) : Math.abs(x)));
  unary('fabs', Math.abs);
  rounding('floor', Math.floor);
  binary('mod', goMod);
  binary('pow', (x, y) => (x === 1 || y === 0 ? 1 : x ** y));
  binary('remainder', remainder);
  unary('round', goRound);
  unary('exp', Math.exp);
  unary('sqrt', Math.sqrt);
  unary('acos', Math.acos);
  unary('asin', Math.asin);
  unary('atan', Math.atan);
  binary('atan2', Math.atan2);
  unary('cos', Math.cos);
  binary('hypot', Math.hypot);
  unary('sin', Math.sin);
  unary('tan', Math.tan);
  unary('degrees', (x) => (360 * x) / (2 * Math.PI));
  unary('radians', (x) => (2 * Math.PI * x) / 360);
  unary('acosh', Math.acosh);
  unary('asinh', Math.asinh);
  unary('atanh', Math.atanh);
  unary('cosh', Math.cosh);
  unary('sinh', Math.sinh);
  unary('tanh', Math.tanh);
  m.set(
    'log',
    new Builtin('log', (args, kwargs) => {
      const [x, b] = positional('log', args, kwargs, 1, 2);
      const xv = num('log', 1, x!);
      const base = b === undefined ? Math.E : num('log', 2, b);
      if (base === 1) throw new EvalErr('division by zero');
      return new Float(b === undefined ? Math.log(xv) : Math.log(xv) / Math.log(base));
    }),
  );
  unary('gamma', gamma);
  m.set('e', new Float(Math.E));
  m.set('pi', new Float(Math.PI));
  return new Module('math', m);
}
