/**
 * Request bodies: one content-type parser keeps the raw text (within `max_body_size`), and the route
 * handler decodes it knowing what the endpoint declares. That way a bad JSON body becomes the exact
 * 400 of SPEC.md §7, a non-JSON body sent to a JSON endpoint a 415 (DECISIONS.md §3), and neither
 * reaches a step. Parsing itself is src/schema's (nesting bound, prototype-pollution refusal).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { problem, type Problem } from '../problem/index.js';
import { invalidJsonProblem, isJsonContentType, parseJsonBody } from '../schema/index.js';
import { requestPath } from './problems.js';

export type BodyOutcome = { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly problem: Problem };

/** Every content type is read as text; decoding happens per endpoint in `decodeBody`. */
export function installRawBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, keepText);
  // The same parser under the usual media type: Fastify caches the parser found for a Content-Type
  // only when it matched a registered type, so a catch-all alone parses the header on every request
  // (about a microsecond, measured on bench/transform).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, keepText);
}

function keepText(_request: FastifyRequest, body: string | Buffer, done: (error: null, body: string | Buffer) => void): void {
  done(null, body);
}

const NO_BODY: BodyOutcome = { ok: true, body: undefined };

/**
 * `jsonDeclared`: the endpoint declares a JSON body; an absent Content-Type then counts as JSON.
 * Without a declaration a JSON body is still decoded (a bad one is still a 400), and any other body
 * is passed on as text.
 */
export function decodeBody(raw: unknown, contentType: string | undefined, jsonDeclared: boolean, request: FastifyRequest): BodyOutcome {
  if (typeof raw !== 'string' || raw.length === 0) return NO_BODY;
  const json = jsonDeclared ? isJsonContentType(contentType) : contentType !== undefined && isJsonContentType(contentType);
  if (!json) {
    if (jsonDeclared) return { ok: false, problem: problem(415, undefined, `a JSON body is expected, not ${mediaType(contentType!)}`) };
    return { ok: true, body: raw };
  }
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
