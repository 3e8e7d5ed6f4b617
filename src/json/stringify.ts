/**
 * JSON text for values that may hold BigInt (Starlark ints beyond 2^53 stay exact as BigInt).
 * `JSON.stringify` throws on BigInt and Node 20 has no `JSON.rawJSON`, so BigInts are first written
 * as marked strings and the marks then replaced by the digits. The mark carries a random nonce fixed
 * per process, so no string a client or script sends can be mistaken for one.
 *
 * The plain `JSON.stringify` is tried first: values without BigInt (nearly all) pay nothing extra.
 */
import { randomBytes } from 'node:crypto';

const NONCE = randomBytes(8).toString('hex');
const MARK = `\u0000${NONCE}:`;
const MARKED = new RegExp(`"\\\\u0000${NONCE}:(-?\\d+)"`, 'g');

function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? MARK + value.toString() : value;
}

/** Like JSON.stringify, with BigInt written as an exact JSON number. Throws as it does on cycles. */
export function stringifyExact(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent);
  } catch (error) {
    if (!(error instanceof TypeError) || !/BigInt/i.test(error.message)) throw error;
  }
  return JSON.stringify(value, replacer, indent).replace(MARKED, '$1');
}
