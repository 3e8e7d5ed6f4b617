/**
 * Safe JSON request bodies: parsing with a nesting bound and prototype-pollution protection, and the
 * Content-Type test; a failure is the 400 of SPEC.md §7 (`invalidJsonProblem`).
 *
 * A `__proto__` key, or a `constructor` whose value has a `prototype` key, is REJECTED (as fastify's
 * secure-json-parse `onProtoPoisoning: 'error'`), not cleaned: a later `Object.assign` or merge
 * would write it through to the prototype, no legitimate client sends one, and a silently changed
 * request could mean something other than what was sent. `{"constructor": "Ford"}` is ordinary data.
 */

import { jsonNestsDeeper } from '../json/index.js';

export type JsonBodyResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

export const DEFAULT_MAX_DEPTH = 64;

/** Quick text tests (secure-json-parse's): the tree walk runs only when one of them matches. */
const SUSPECT_PROTO =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;
const SUSPECT_CONSTRUCTOR =
  /"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)(?:u|\\u0075)(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072)"\s*:/;

export const FORBIDDEN_PROPERTY_MESSAGE = 'object contains forbidden prototype property';

/**
 * Parses a request body. `maxDepth` bounds the nesting of objects and arrays (`{}` and `[]` are depth
 * 1): a deeper document is refused before it is parsed, so a small body of brackets cannot make every
 * later recursive walk (validation, expressions, serialisation) overflow the stack.
 * On failure `message` is the parser's message, ready for `invalid JSON payload: <message>`.
 */
export function parseJsonBody(text: string, maxDepth: number = DEFAULT_MAX_DEPTH): JsonBodyResult {
  // A UTF-8 byte order mark is not JSON (RFC 8259 §8.1) but some clients send one; ignore it.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (jsonNestsDeeper(text, maxDepth)) return { ok: false, message: `nesting depth exceeds the limit of ${maxDepth}` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  if (typeof value === 'object' && value !== null && (SUSPECT_PROTO.test(text) || SUSPECT_CONSTRUCTOR.test(text))) {
    if (hasForbiddenKey(value)) return { ok: false, message: FORBIDDEN_PROPERTY_MESSAGE };
  }
  return { ok: true, value };
}

function hasForbiddenKey(root: object): boolean {
  const hasOwn = Object.prototype.hasOwnProperty;
  const stack: object[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    if (hasOwn.call(node, '__proto__')) return true;
    if (hasOwn.call(node, 'constructor')) {
      const c = node.constructor;
      if (typeof c === 'object' && c !== null && hasOwn.call(c, 'prototype')) return true;
    }
    for (const key in node) {
      const v = node[key];
      if (typeof v === 'object' && v !== null) stack.push(v);
    }
  }
  return false;
}

/**
 * Whether a Content-Type announces JSON: `application/json` or any `application/<x>+json`
 * (RFC 6839 suffix), with any parameters (`; charset=utf-8`), in any casing. An absent or empty header
 * counts as JSON: clients such as `curl -d` and many SDKs omit it, and the endpoint declares JSON.
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return true;
  const semi = header.indexOf(';');
  const mediaType = (semi < 0 ? header : header.slice(0, semi)).trim().toLowerCase();
  if (mediaType === '' || mediaType === 'application/json') return true;
  return JSON_SUFFIX.test(mediaType);
}

/** `application/` + a restricted-name subtype (RFC 6838 §4.2) ending in `+json`. */
const JSON_SUFFIX = /^application\/[a-z0-9][a-z0-9!#$&^_.+-]*\+json$/;
