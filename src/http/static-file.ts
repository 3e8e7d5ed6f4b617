/**
 * Files served from memory (the OpenAPI document, a documentation page and its assets), each with a
 * strong ETag so a revalidating client gets a 304; `Cache-Control` is `no-cache` for the document (it
 * changes with the manifest) or `immutable` for assets whose path carries their version. A file may
 * be made on its first request (`content` a function; the document cannot fail for a model that
 * checked clean): a boot need not pay for docs nobody asks for (bench/users README "A lighter start").
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ContentCoding } from '../model/index.js';
import { type Compressor, compressible } from './compress.js';
import { codedTag, noneMatch } from './conditional.js';
import { joinVary } from './cors.js';
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

/** `sha256`: the content's SHA-256 in hex, when the caller already took it (a renderer's asset). */
export function staticFile(content: FileContent | (() => FileContent), contentType: string, cacheControl: string = REVALIDATE, sha256?: string): StaticFile {
  const known = sha256 === undefined ? undefined : `"${Buffer.from(sha256, 'hex').toString('base64url')}"`;
  let made: { readonly body: Buffer; readonly etag: string } | undefined;
  const make = (): { readonly body: Buffer; readonly etag: string } => {
    if (made !== undefined) return made;
    const value = typeof content === 'function' ? content() : content;
    const body = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
    return (made = { body, etag: known ?? `"${createHash('sha256').update(body).digest('base64url')}"` });
  };
  return {
    get body() {
      return make().body;
    },
    get etag() {
      return known ?? make().etag;
    },
    contentType,
    cacheControl,
  };
}

type FileContent = string | Buffer;

/**
 * The route handler of one file (GET; Fastify answers HEAD from it without the body). With the
 * endpoint's `compressor` (docs/compression.md), a text file of at least `min_size` bytes is sent in
 * the client's coding, compressed once per coding on first demand and kept, with its own tag.
 */
export function serveStaticFile(file: StaticFile, compressor?: Compressor): (request: FastifyRequest, reply: FastifyReply) => void {
  // Decided on the first request: the file's body may not be made before (staticFile).
  let compressing: Compressor | undefined | null = null;
  const compressorFor = (): Compressor | undefined =>
    compressor !== undefined && compressible(file.contentType) && file.body.byteLength >= compressor.minSize ? compressor : undefined;
  const coded = new Map<ContentCoding, { readonly body: Buffer; readonly etag: string }>();
  const codedFile = (coding: ContentCoding): { readonly body: Buffer; readonly etag: string } => {
    let made = coded.get(coding);
    if (made === undefined) coded.set(coding, (made = { body: compressing!.compressSync(file.body, coding), etag: codedTag(file.etag, coding) }));
    return made;
  };
  return function serve(request, reply) {
    if (compressing === null) compressing = compressorFor();
    const coding = compressing?.choose(request.headers['accept-encoding']);
    const sent = coding === undefined ? file : codedFile(coding);
    reply.header(REQUEST_ID_HEADER, request.id);
    reply.header('etag', sent.etag);
    reply.header('cache-control', file.cacheControl);
    if (compressing !== undefined) reply.header('vary', joinVary(reply.getHeader('vary'), 'Accept-Encoding'));
    // The comparison endpoints' ETags use (conditional.ts): any coding's tag of this file matches.
    if (noneMatch(request.headers['if-none-match'], file.etag, compressing !== undefined)) {
      reply.code(304).send();
    } else {
      reply.header('content-type', file.contentType);
      reply.header('x-content-type-options', 'nosniff');
      if (coding !== undefined) reply.header('content-encoding', coding);
      reply.send(sent.body);
    }
    logSent(request, reply);
  };
}
