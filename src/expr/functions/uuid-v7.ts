/** `uuid_v7()`: a time-ordered (version 7, RFC 9562) UUID. Impure. */
import { randomBytes } from 'node:crypto';
import { defineFunction } from './types.js';

export function uuidV7String(now = Date.now()): string {
  const b = randomBytes(16);
  // 48-bit big-endian Unix time in milliseconds, then version 7 and the RFC 4122 variant.
  let t = now;
  for (let i = 5; i >= 0; i--) {
    b[i] = t % 256;
    t = Math.floor(t / 256);
  }
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const uuidV7 = defineFunction({ name: 'uuid_v7', params: [], pure: false, impl: () => uuidV7String() });
