// Arbitrary-precision int arithmetic. An int is a JS number inside the safe
// range (fast path, no allocation) or a BigInt outside it. Every result is
// normalised back so that each int value has exactly one representation.

import { EvalErr } from './value.js';
import type { Thread } from '../thread.js';

export type Int = number | bigint;

const MAX = Number.MAX_SAFE_INTEGER;
const BMAX = BigInt(MAX);
const BMIN = -BMAX;

/**
 * Ints are capped at MAX_INT_BITS bits (a 'size' error beyond): a loop of a
 * few squarings would otherwise build numbers whose every operation (and
 * str()) takes seconds, between two checks of the clock.
 */
export const MAX_INT_BITS = 1 << 16;
const BLIMIT = 1n << BigInt(MAX_INT_BITS);
const BLARGE = 1n << 4096n;

export function norm(b: bigint): Int {
  if (b >= BMIN && b <= BMAX) return Number(b);
  if (b >= BLIMIT || b <= -BLIMIT) tooBig();
  return b;
}

/**
 * Large ints cost time out of proportion to a step: charge a result beyond
 * 4096 bits to the thread, so that the budget reflects the work and the clock
 * is consulted. Returns r.
 */
export function charged(r: Int, th: Thread): Int {
  if (typeof r === 'bigint' && (r >= BLARGE || r <= -BLARGE)) th.chargeSteps(1 << 16);
  return r;
}

function tooBig(): never {
  throw new EvalErr(`int size limit exceeded (more than ${MAX_INT_BITS} bits)`, 'size');
}

/** Refuse, before parsing, a numeral of n digits in base b that would exceed MAX_INT_BITS. */
export function checkDigits(n: number, base = 10): void {
  if (n > 1 + MAX_INT_BITS / Math.log2(base)) tooBig();
}

export function big(x: Int): bigint {
  return typeof x === 'bigint' ? x : BigInt(x);
}

export function add(x: Int, y: Int): Int {
  if (typeof x === 'number' && typeof y === 'number') {
    const r = x + y;
    if (r <= MAX && r >= -MAX) return r;
  }
  return norm(big(x) + big(y));
}

export function sub(x: Int, y: Int): Int {
  if (typeof x === 'number' && typeof y === 'number') {
    const r = x - y;
    if (r <= MAX && r >= -MAX) return r;
  }
  return norm(big(x) - big(y));
}

export function mul(x: Int, y: Int): Int {
  if (typeof x === 'number' && typeof y === 'number') {
    const r = x * y;
    if (r <= MAX && r >= -MAX) return r + 0; // + 0 turns -0 into 0
  }
  return norm(big(x) * big(y));
}

/** Floored division (Python semantics). y must be non-zero. */
export function floorDiv(x: Int, y: Int): Int {
  if (typeof x === 'number' && typeof y === 'number') {
    const q = Math.floor(x / y);
    // x / y is exact enough when both fit in 2^53 except for rounding at the
    // boundaries; verify with the remainder.
    const r = x - q * y;
    if (Number.isSafeInteger(q) && Number.isSafeInteger(r) && (r === 0 || r > 0 === y > 0) && Math.abs(r) < Math.abs(y)) return q + 0;
  }
  const bx = big(x),
    by = big(y);
  let q = bx / by;
  if (bx % by !== 0n && bx < 0n !== by < 0n) q -= 1n;
  return norm(q);
}

/** Modulo with the sign of the divisor (Python semantics). y must be non-zero. */
export function mod(x: Int, y: Int): Int {
  if (typeof x === 'number' && typeof y === 'number') {
    let r = x % y;
    if (r !== 0 && r < 0 !== y < 0) r += y;
    return r + 0;
  }
  const bx = big(x),
    by = big(y);
  let r = bx % by;
  if (r !== 0n && r < 0n !== by < 0n) r += by;
  return norm(r);
}

export function neg(x: Int): Int {
  if (typeof x === 'number') return x === 0 ? 0 : -x;
  return norm(-x);
}

export function bitAnd(x: Int, y: Int): Int {
  if (typeof x === 'number' && typeof y === 'number' && x >= -0x80000000 && x <= 0x7fffffff && y >= -0x80000000 && y <= 0x7fffffff) return x & y;
  return norm(big(x) & big(y));
}
export function bitOr(x: Int, y: Int): Int {
  if (typeof x === 'number' && typeof y === 'number' && x >= -0x80000000 && x <= 0x7fffffff && y >= -0x80000000 && y <= 0x7fffffff) return x | y;
  return norm(big(x) | big(y));
}
export function bitXor(x: Int, y: Int): Int {
  if (typeof x === 'number' && typeof y === 'number' && x >= -0x80000000 && x <= 0x7fffffff && y >= -0x80000000 && y <= 0x7fffffff) return x ^ y;
  return norm(big(x) ^ big(y));
}
export function bitNot(x: Int): Int {
  if (typeof x === 'number') return -x - 1;
  return norm(~x);
}
export function lsh(x: Int, n: number): Int {
  return norm(big(x) << BigInt(n));
}
export function rsh(x: Int, n: number): Int {
  if (typeof x === 'number' && n < 32 && x >= -0x80000000 && x <= 0x7fffffff) return x >> n;
  return norm(big(x) >> BigInt(n));
}

export function cmpInt(x: Int, y: Int): number {
  return x < y ? -1 : x > y ? 1 : 0; // JS compares number/bigint mixes exactly
}

export function sign(x: Int): number {
  return x > 0 ? 1 : x < 0 ? -1 : 0;
}

/** int -> float64, rounding to nearest (may be Infinity). */
export function intToFloat(x: Int): number {
  if (typeof x === 'number') return x;
  // Number(bigint) rounds correctly (to nearest, ties to even) in V8.
  return Number(x);
}

/** float (finite) -> int, truncating toward zero. */
export function floatToInt(f: number): Int {
  const t = Math.trunc(f);
  if (Number.isSafeInteger(t)) return t + 0;
  return norm(BigInt(t));
}
