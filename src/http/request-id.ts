/**
 * `X-Request-Id`: accepted from the client when it is sane, generated otherwise, echoed on every response.
 *
 * "Sane" bounds what reaches the log and the response header: at most 128 characters from a safe set
 * (no spaces, quotes or control characters), so a client cannot forge log structure or inject headers.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

const SANE = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function isSaneRequestId(value: unknown): value is string {
  return typeof value === 'string' && SANE.test(value);
}

/**
 * Generated ids are `<process prefix>-<counter>`: the random prefix keeps instances and restarts
 * apart, the counter costs nanoseconds (crypto.randomUUID about 0.25 us, its entropy refills counted).
 */
const PREFIX = randomBytes(6).toString('hex');
let counter = 0;

export function generateRequestId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${PREFIX}-${counter.toString(36)}`;
}

/** Fastify's `genReqId`: runs once per request, before routing. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return isSaneRequestId(given) ? given : generateRequestId();
}
