/**
 * `"<METHOD> <path>"` labels: the method, and the path pattern split into literal segments,
 * `{name}` parameters and a trailing `{name...}` catch-all. A parameter fills a whole segment
 * (`/files/{name}.json` is rejected) because that is what the router and OpenAPI both express.
 */
import { type Range, didYouMean } from '../diag/index.js';
import type { HttpMethod, PathSegment } from './types.js';
import type { DecodeScope } from './scope.js';

export const METHODS: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export interface RouteLabel {
  readonly method: HttpMethod;
  readonly path: string;
  readonly segments: readonly PathSegment[];
  readonly pathParams: readonly string[];
  readonly catchAll?: string;
  /** Method + path with parameter names erased: two routes with the same shape collide. */
  readonly shape: string;
}

const PARAM = /^\{([A-Za-z_][A-Za-z0-9_]*)(\.\.\.)?\}$/;
const LITERAL = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%]+$/;

export function parseRouteLabel(label: string, range: Range, scope: DecodeScope): RouteLabel | undefined {
  const m = /^(\S+) +(\S+)$/.exec(label.trim());
  if (!m) {
    scope.error('Invalid route label', range, { detail: `Expected "<METHOD> <path>", such as "GET /users/{id}"; got "${label}".` });
    return undefined;
  }
  const method = m[1]!.toUpperCase() as HttpMethod;
  let ok = true;
  if (!METHODS.includes(method)) {
    const suggestion = didYouMean(m[1]!, METHODS);
    scope.error('Invalid HTTP method', range, {
      detail: `"${m[1]}" is not a supported method; use one of ${METHODS.join(', ')}.`,
      ...(suggestion ? { suggestion } : {}),
    });
    ok = false;
  }
  const path = m[2]!;
  if (!path.startsWith('/')) {
    scope.error('Invalid path', range, { detail: `A path starts with "/"; got "${path}".` });
    return undefined;
  }
  const segments: PathSegment[] = [];
  const params: string[] = [];
  let catchAll: string | undefined;
  const raw = path === '/' ? [] : path.slice(1).split('/');
  raw.forEach((text, i) => {
    const last = i === raw.length - 1;
    if (text === '') {
      if (!last) {
        scope.error('Invalid path', range, { detail: `Path "${path}" has an empty segment ("//").` });
        ok = false;
      }
      // A trailing slash is a distinct literal route, kept as an empty literal segment.
      else segments.push({ kind: 'literal', value: '' });
      return;
    }
    const p = PARAM.exec(text);
    if (p) {
      const name = p[1]!;
      if (params.includes(name)) {
        scope.error('Duplicate path parameter', range, { detail: `Parameter "{${name}}" appears twice in "${path}".` });
        ok = false;
      }
      params.push(name);
      if (p[2]) {
        if (!last) {
          scope.error('Invalid path', range, { detail: `The catch-all "{${name}...}" must be the last segment of "${path}".` });
          ok = false;
        }
        catchAll = name;
        segments.push({ kind: 'catchAll', name });
      } else segments.push({ kind: 'param', name });
      return;
    }
    if (text.includes('{') || text.includes('}')) {
      scope.error('Invalid path parameter', range, {
        detail: `"${text}" in "${path}": a parameter is written {name} (or {name...} at the end) and fills a whole segment.`,
      });
      ok = false;
      return;
    }
    if (!LITERAL.test(text)) {
      scope.error('Invalid path', range, { detail: `Segment "${text}" of "${path}" contains characters not allowed in a URL path.` });
      ok = false;
      return;
    }
    segments.push({ kind: 'literal', value: text });
  });
  if (!ok) return undefined;
  const shape = method + ' /' + segments.map((s) => (s.kind === 'literal' ? s.value : s.kind === 'param' ? '{}' : '{...}')).join('/');
  return { method, path, segments, pathParams: params, ...(catchAll ? { catchAll } : {}), shape };
}
