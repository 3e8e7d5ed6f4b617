/**
 * Redis integers as JavaScript values. Redis counts in signed 64 bits; a JS number is exact only to
 * 2^53, so a reply (ioredis hands them over as text, `stringNumbers`) becomes a number while it is a
 * safe integer and a BigInt past it, never a rounded number.
 */
import type { IntegerReply } from './types.js';

export const INT64_MAX = 2n ** 63n - 1n;
export const INT64_MIN = -(2n ** 63n);

export function integerReply(value: string | number | bigint): IntegerReply {
  if (typeof value === 'number') return value;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : BigInt(value);
}

/**
 * Redis' own reading of a string as an integer (string2ll): an optional `-`, then `0` alone or
 * digits without a leading zero; no `+`, no spaces, no decimal point; within 64 bits. Undefined
 * otherwise: INCR then fails with `ERR value is not an integer or out of range`.
 */
export function parseRedisInteger(text: string): bigint | undefined {
  if (text.length === 0 || text.length > 20 || !/^(?:0|-?[1-9][0-9]*)$/.test(text)) return undefined;
  const n = BigInt(text);
  return n > INT64_MAX || n < INT64_MIN ? undefined : n;
}
