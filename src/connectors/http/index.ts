/**
 * Outbound HTTP on undici: the client resource the connector set opens and closes (./client.ts),
 * one exchange with its cancellation, time-out, size bound and hop-by-hop rules (./exchange.ts),
 * and the pullable upstream body that `stream = true` hands to a stream step (./stream.ts; reached
 * through `OutboundClient.stream`).
 */
export { createOutboundHttp, type OutboundClient, type OutboundHttp } from './client.js';
export { DEFAULT_MAX_BODY_BYTES, type OutboundResponse } from './exchange.js';
export type { HeaderValue } from './hop-by-hop.js';
export type { UpstreamBody } from './stream.js';
