/**
 * Request bodies: one content-type parser keeps the raw text (within `max_body_size`), and the route
 * handler decodes it knowing what the endpoint declares. That way a bad JSON body becomes the exact
 * 400 of SPEC.md §7, a non-JSON body sent to a JSON endpoint a 415 (DECISIONS.md §3), and neither
 * reaches a step. Parsing itself is src/schema's (nesting bound, prototype-pollution refusal).
 */
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { problem, type Problem } from '../problem/index.js';
import { invalidJsonProblem, isJsonContentType, parseJsonBody } from '../schema/index.js';
import { requestPath } from './problems.js';

export type BodyOutcome = { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly problem: Problem };

/** Every content type is read as text; decoding happens per endpoint in `decodeBody`. */
export function installRawBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, keepText);
  // The same parser under the usual media type: Fastify caches the parser found for a Content-Type
  // only when it matched a registered type, so a catch-all alone parses the header on every request
  // (about a microsecond, measured on bench/transform).
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, keepText);
}

/** What `keepText` hands on for a body whose bytes are not UTF-8; `decodeBody` answers it with a 400. */
const NOT_UTF8: unique symbol = Symbol('body is not UTF-8');

/**
 * The bytes are decoded here, where they still exist: Fastify's own `parseAs: 'string'` replaces
 * every invalid sequence with U+FFFD and a step would receive text the client never sent. Node's
 * decoder leaves no U+FFFD in the text of valid bytes unless the client sent one, so the check of
 * the bytes runs only for a text that holds one (the fast path pays one `indexOf`).
 */
function keepText(_request: FastifyRequest, body: Buffer, done: (error: null, body: string | typeof NOT_UTF8) => void): void {
  const text = body.toString('utf8');
  done(null, text.indexOf('\uFFFD') < 0 || isUtf8(body) ? text : NOT_UTF8);
}

const NO_BODY: BodyOutcome = { ok: true, body: undefined };

/**
 * A body whose bytes are not UTF-8 is refused whatever its media type: steps receive a body as text,
 * and no text holds those bytes (a declared `charset` other than UTF-8 is not converted either). A
 * JSON body gets the 400 of SPEC.md §7 (RFC 8259 §8.1: JSON exchanged between systems is UTF-8),
 * any other a plain 400; a non-JSON body sent to a JSON endpoint keeps its 415.
 */
const INVALID_UTF8 = 'the body is not valid UTF-8';

/**
 * `jsonDeclared`: the endpoint declares a JSON body; an absent Content-Type then counts as JSON.
 * Without a declaration a JSON body is still decoded (a bad one is still a 400), and any other body
 * is passed on as text (when it is UTF-8).
 */
export function decodeBody(raw: unknown, contentType: string | undefined, jsonDeclared: boolean, request: FastifyRequest): BodyOutcome {
  if (raw !== NOT_UTF8 && (typeof raw !== 'string' || raw.length === 0)) return NO_BODY;
  const json = jsonDeclared ? isJsonContentType(contentType) : contentType !== undefined && isJsonContentType(contentType);
  if (!json) {
    if (jsonDeclared) return { ok: false, problem: problem(415, undefined, `a JSON body is expected, not ${mediaType(contentType!)}`) };
    if (raw === NOT_UTF8) return { ok: false, problem: problem(400, undefined, INVALID_UTF8, requestPath(request)) };
    return { ok: true, body: raw };
  }
  if (raw === NOT_UTF8) return { ok: false, problem: invalidJsonProblem(INVALID_UTF8, requestPath(request)) };
  const parsed = parseJsonBody(raw);
  if (!parsed.ok) return { ok: false, problem: invalidJsonProblem(parsed.message, requestPath(request)) };
  if (holdsInfinity(parsed.value)) return { ok: false, problem: invalidJsonProblem(OUT_OF_RANGE, requestPath(request)) };
  return { ok: true, body: parsed.value };
}

const OUT_OF_RANGE = `a number is out of range (beyond ±${Number.MAX_VALUE})`;

/**
 * True when the body holds a number JSON.parse turned into ±Infinity (`1e400`, or 309 digits). It
 * cannot be represented: written back as JSON it would silently become null, and no step can use it,
 * so the request is refused as malformed JSON, with the reason. The walk costs about a tenth of the
 * parse it follows.
 */
function holdsInfinity(root: unknown): boolean {
  if (typeof root !== 'object' || root === null) return typeof root === 'number' && !Number.isFinite(root);
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop() as Record<string, unknown> | unknown[];
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const v = node[i];
        if (typeof v === 'number') {
          if (!Number.isFinite(v)) return true;
        } else if (typeof v === 'object' && v !== null) pending.push(v);
      }
    } else {
      for (const k in node) {
        const v = node[k];
        if (typeof v === 'number') {
          if (!Number.isFinite(v)) return true;
        } else if (typeof v === 'object' && v !== null) pending.push(v);
      }
    }
  }
  return false;
}

function mediaType(contentType: string): string {
  const semi = contentType.indexOf(';');
  return (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}
