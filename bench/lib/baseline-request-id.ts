/**
 * The baselines' `X-Request-Id`. svc accepts a request id from the client or generates one, and echoes
 * it on every response (DECISIONS.md, "Logs"); a hand-written service that does the same work does so
 * too. Here in the cheapest way Fastify offers: its own request id (`requestIdHeader` takes the
 * client's, its counter makes one otherwise, unchecked), set on the reply in the handler, with no hook.
 *
 * `--no-request-id` leaves the header out: the baselines as they were measured before 2026-11-27,
 * answering with one header fewer than svc.
 */
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';

const echoesRequestId = !process.argv.includes('--no-request-id');

export function requestIdOptions(): Pick<FastifyServerOptions, 'requestIdHeader'> {
  return echoesRequestId ? { requestIdHeader: 'x-request-id' } : {};
}

export function echoRequestId(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return echoesRequestId ? reply.header('x-request-id', request.id) : reply;
}
