// Size limits on what a script may build. Execution is synchronous and JS is
// single-threaded, so the limits of the running call live in one module-level
// object that the entry points (Program.init, callFunction) set and restore;
// value operations consult it without threading a context through every call.

import { EvalErr } from './types.js';

export interface SizeLimits {
  /** max length in bytes of a string or bytes value built by a script */
  maxStringBytes: number;
  /** max number of elements of a list, tuple, dict or set built by a script */
  maxElements: number;
}

export const DEFAULT_SIZE_LIMITS: SizeLimits = { maxStringBytes: 16 << 20, maxElements: 1_000_000 };

export const LIM: SizeLimits = { ...DEFAULT_SIZE_LIMITS };

export function setLimits(l: SizeLimits): SizeLimits {
  const old = { ...LIM };
  LIM.maxStringBytes = l.maxStringBytes;
  LIM.maxElements = l.maxElements;
  return old;
}

export function checkStrLen(n: number): void {
  if (n > LIM.maxStringBytes) throw new EvalErr(`string size limit exceeded (${n} > ${LIM.maxStringBytes} bytes)`, 'size');
}

export function checkElems(n: number): void {
  if (n > LIM.maxElements) throw new EvalErr(`collection size limit exceeded (${n} > ${LIM.maxElements} elements)`, 'size');
}
