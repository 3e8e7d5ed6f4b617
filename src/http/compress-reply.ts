/**
 * Writing an answer with a body of an endpoint that has a representation (docs/compression.md,
 * "Conditional requests"): `Cache-Control`, a strong ETag and 304 on GET/HEAD, the body compressed
 * when accepted and long enough, `Vary: Accept-Encoding` whenever it could have been. Written on
 * Node's response with the headers Fastify and CORS hold: no onSend hook runs for these routes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ContentCoding, RepresentationModel } from '../model/index.js';
import { Compressor, compressible } from './compress.js';
import { codedTag, entityTag, noneMatch } from './conditional.js';
import { joinVary } from './cors.js';

/** An endpoint's representation, compiled at boot. */
export interface Representation {
  readonly compressor?: Compressor;
  readonly etag: boolean;
  readonly cacheControl?: string;
}

export function compileRepresentation(model: RepresentationModel | undefined): Representation | undefined {
  if (model === undefined) return undefined;
  return {
    ...(model.compression !== undefined ? { compressor: new Compressor(model.compression) } : {}),
    etag: model.etag,
    ...(model.cacheControl !== undefined ? { cacheControl: model.cacheControl } : {}),
  };
}

type Headers = Record<string, string | number | string[]>;

/** The headers Fastify holds for the reply, lower-cased: the base every way of writing here starts from. */
function heldHeaders(reply: FastifyReply): Headers {
  const headers: Headers = {};
  const held = reply.getHeaders();
  for (const name in held) {
    const value = held[name];
    if (value !== undefined) headers[name] = value as string | number | string[];
  }
  return headers;
}

/**
 * `Vary: Accept-Encoding` joined with what is already there: a step's (held by Fastify) and CORS's
 * `Origin` (on Node's response, which `writeHead`'s own headers would otherwise replace).
 */
export function varyOnEncoding(headers: Headers, reply: FastifyReply): void {
  const onResponse = reply.raw.getHeader('vary');
  const vary = joinVary(typeof headers.vary === 'string' ? headers.vary : undefined, 'Accept-Encoding');
  headers.vary = typeof onResponse === 'string' ? joinVary(onResponse, vary) : vary;
}

/** Writes `text` (JSON or text of `contentType`) with `status`; 304 when the client's copy is current. */
export function writeRepresented(request: FastifyRequest, reply: FastifyReply, status: number, contentType: string, text: string, rep: Representation): void {
  const headers = heldHeaders(reply);
  // A pipeline's own Cache-Control (a respond step's headers) wins over the endpoint's.
  if (rep.cacheControl !== undefined && headers['cache-control'] === undefined) headers['cache-control'] = rep.cacheControl;
  const method = request.method;
  const conditional = rep.etag && status === 200 && (method === 'GET' || method === 'HEAD');
  const compressor = rep.compressor;
  let coding: ContentCoding | undefined;
  let body: Buffer | string = text;
  // Never compressed twice: a body the pipeline says is already coded goes as it is.
  if (compressor !== undefined && headers['content-encoding'] === undefined && compressible(contentType)) {
    varyOnEncoding(headers, reply);
    const length = Buffer.byteLength(text);
    if (length >= compressor.minSize) coding = compressor.choose(request.headers['accept-encoding']);
  }
  if (conditional) {
    const tag = entityTag(text);
    headers.etag = codedTag(tag, coding);
    if (noneMatch(request.headers['if-none-match'], tag)) {
      // RFC 9110 §15.4.5: the headers a 200 would have had that describe the representation, no body.
      reply.raw.writeHead(304, headers);
      reply.raw.end();
      return;
    }
  }
  if (coding !== undefined) {
    body = compressor!.compressSync(Buffer.from(text, 'utf8'), coding);
    headers['content-encoding'] = coding;
  }
  headers['content-type'] = contentType;
  headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  // HEAD: the same headers, the length of the body a GET gets; Node sends no body.
  reply.raw.writeHead(status, headers);
  reply.raw.end(body);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The endpoint's representation (set by the handler of an endpoint that has one); else null. */
    svcRepresentation: Representation | null;
  }
}
