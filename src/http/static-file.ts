/**
 * Files built once at boot and served from memory: the OpenAPI document of a spec endpoint, and a
 * documentation page with its renderer's assets. Each carries a strong ETag (a hash of its bytes), so a client
 * that revalidates (`If-None-Match`) gets a 304 without the body; `Cache-Control` says whether it
 * must revalidate (`no-cache`, the document: it changes when the manifest does) or may keep the file
 * (`public, max-age=31536000, immutable`, for assets whose path carries their version).
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { noneMatch } from './conditional.js';
import { logSent } from './note.js';
import { REQUEST_ID_HEADER } from './request-id.js';

export interface StaticFile {
  readonly body: Buffer;
  readonly contentType: string;
  /** A strong validator, quoted: `"<base64url sha-256>"`. */
  readonly etag: string;
  readonly cacheControl: string;
}

/** The document changes when the manifest does: a client asks again, and gets a 304 while it has not. */
export const REVALIDATE = 'no-cache';

export function staticFile(content: string | Buffer, contentType: string, cacheControl: string = REVALIDATE): StaticFile {
  const body = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
  return { body, contentType, etag, cacheControl };
}

/** The route handler of one file (GET; Fastify answers HEAD from it without the body). */
export function serveStaticFile(file: StaticFile): (request: FastifyRequest, reply: FastifyReply) => void {
  return function serve(request, reply) {
    reply.header(REQUEST_ID_HEADER, request.id);
    reply.header('etag', file.etag);
    reply.header('cache-control', file.cacheControl);
    // The comparison endpoints' ETags use (conditional.ts); a file is served as it is, so only its own tag.
    if (noneMatch(request.headers['if-none-match'], file.etag, false)) {
      reply.code(304).send();
    } else {
      reply.header('content-type', file.contentType);
      reply.header('x-content-type-options', 'nosniff');
      reply.send(file.body);
    }
    logSent(request, reply);
  };
}
