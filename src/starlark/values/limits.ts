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
  /**
   * budget for bulk allocations in one run (init or call), in bytes (8 per
   * element): repetition, concatenation, join, replace and formatting of large
   * values. With the step budget this bounds the memory a script can take.
   */
  maxAllocBytes: number;
}

export const DEFAULT_SIZE_LIMITS: SizeLimits = { maxStringBytes: 16 << 20, maxElements: 1_000_000, maxAllocBytes: 256 << 20 };

/** Limits of the current run, and what it has allocated in bulk so far. */
export const LIM: SizeLimits & { allocated: number } = { ...DEFAULT_SIZE_LIMITS, allocated: 0 };

/** Charge a bulk allocation of `bytes` to the current run. */
export function chargeAlloc(bytes: number): void {
  LIM.allocated += bytes;
  if (LIM.allocated > LIM.maxAllocBytes) {
    throw new EvalErr(`allocation limit exceeded (more than ${LIM.maxAllocBytes} bytes built in bulk by this run)`, 'size');
  }
}

export function checkStrLen(n: number): void {
  if (n > LIM.maxStringBytes) throw new EvalErr(`string size limit exceeded (${n} > ${LIM.maxStringBytes} bytes)`, 'size');
}

export function checkElems(n: number): void {
  if (n > LIM.maxElements) throw new EvalErr(`collection size limit exceeded (${n} > ${LIM.maxElements} elements)`, 'size');
}
