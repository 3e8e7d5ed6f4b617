/**
 * V8's `gc`, which exists only under `--expose-gc`, a flag that would also expose it to every later
 * realm (user code's included): the flag is set for the one realm that hands the function over and
 * unset at once (the same mechanism as src/stream/free-bytes.ts). Borrowed on each call, so a
 * process that never collects makes no realm; undefined where it cannot be had, and then nothing is
 * collected: every caller only saves memory with it, nothing depends on it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
// A V8 internal (a flag set at run time): what is relied on and where it was verified.
import { EXPOSE_GC_FLAG } from './internals.js';

/** V8 12's options; V8 11 reads any options object as a young-generation collection. */
export interface GcOptions {
  readonly type: 'major' | 'minor';
  readonly execution: 'sync' | 'async';
  readonly flavor?: 'regular' | 'last-resort';
}

export type Gc = (options?: GcOptions) => void;

export function borrowGc(): Gc | undefined {
  let gc: unknown;
  try {
    setFlagsFromString(EXPOSE_GC_FLAG);
    gc = runInNewContext('gc');
  } catch {
    return undefined;
  } finally {
    setFlagsFromString(`--no-${EXPOSE_GC_FLAG.slice(2)}`);
  }
  return typeof gc === 'function' ? (gc as Gc) : undefined;
}
