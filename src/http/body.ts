/**
 * Request bodies: one content-type parser keeps the raw text (within `max_body_size`), and the route
 * handler decodes it knowing what the endpoint declares. That way a bad JSON body becomes the exact
 * 400 of SPEC.md §7, a non-JSON body sent to a JSON endpoint a 415 (DECISIONS.md §3), and neither
 * reaches a step.
 */
import type { FastifyInstance } from 'fastify';

export type BodyOutcome =
  | { readonly ok: true; readonly body: unknown }
  | { readonly ok: false; readonly status: 400 | 415; readonly title?: string; readonly detail: string };

/** Every content type is read as text; decoding happens per endpoint in `decodeBody`. */
export function installRawBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
}

const NO_BODY: BodyOutcome = { ok: true, body: undefined };

/**
 * `jsonDeclared`: the endpoint declares a JSON body. Without a declaration a JSON body is still decoded
 * (a bad one is still a 400), and any other body is passed on as text.
 */
export function decodeBody(raw: unknown, contentType: string | undefined, jsonDeclared: boolean): BodyOutcome {
  if (typeof raw !== 'string' || raw.length === 0) return NO_BODY;
  const json = contentType === undefined ? jsonDeclared : isJsonContentType(contentType);
  if (!json) {
    if (jsonDeclared) return { ok: false, status: 415, detail: `a JSON body is expected, not ${mediaType(contentType!)}` };
    return { ok: true, body: raw };
  }
  try {
    return { ok: true, body: JSON.parse(raw) as unknown };
  } catch (error) {
    return {
      ok: false,
      status: 400,
      title: 'Invalid Request Payload',
      detail: `invalid JSON payload: ${(error as Error).message}`,
    };
  }
}

/** `application/json`, `application/<x>+json`, with any parameters. */
export function isJsonContentType(contentType: string): boolean {
  const type = mediaType(contentType);
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

function mediaType(contentType: string): string {
  const semi = contentType.indexOf(';');
  return (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}
