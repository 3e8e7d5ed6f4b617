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
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
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
  if (parsed.ok) return { ok: true, body: parsed.value };
  return { ok: false, problem: invalidJsonProblem(parsed.message, requestPath(request)) };
}

function mediaType(contentType: string): string {
  const semi = contentType.indexOf(';');
  return (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}
