/**
 * The allowed origins of a CORS policy, compiled at boot into one cheap test per request: a length
 * bound, a set lookup for exact origins, a prefix/suffix test per pattern (`https://*.example.com`).
 * No regular expression runs over the client's text beyond a wildcard's host labels, within the
 * bound. The manifest lower-cased every entry (src/manifest/cors.ts) as browsers serialize origins.
 */

/** A DNS name is at most 253 characters: what a pattern's `*` may stand for. */
const MAX_HOST = 253;

/** One or more host labels: what `*.` stands for in a pattern. */
const LABELS = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/;

interface Pattern {
  /** `https://`: the scheme. */
  readonly prefix: string;
  /** `.example.com` or `.example.com:8443`: the rest after the wildcard. */
  readonly suffix: string;
}

export interface OriginMatcher {
  /** `*` is among the allowed origins: every origin is allowed. */
  readonly any: boolean;
  allows(origin: string): boolean;
}

export function compileOrigins(allowed: readonly string[]): OriginMatcher {
  const any = allowed.includes('*');
  const exact = new Set<string>();
  const patterns: Pattern[] = [];
  let longest = 0;
  for (const origin of allowed) {
    if (origin === '*') continue;
    const star = origin.indexOf('://*.');
    if (star < 0) {
      exact.add(origin);
      longest = Math.max(longest, origin.length);
    } else {
      const pattern = { prefix: origin.slice(0, star + 3), suffix: origin.slice(star + 4) };
      patterns.push(pattern);
      longest = Math.max(longest, pattern.prefix.length + MAX_HOST + pattern.suffix.length);
    }
  }
  if (any) return { any, allows: () => true };
  // The last origin a pattern allowed: a request's answer asks twice (its headers, then the head of
  // a direct write), and a page's requests come from one origin; only an allowed origin is kept.
  let lastByPattern = '';
  return {
    any,
    allows(origin) {
      if (origin.length > longest) return false;
      if (exact.has(origin) || origin === lastByPattern) return true;
      for (const { prefix, suffix } of patterns) {
        if (origin.length > prefix.length + suffix.length && origin.startsWith(prefix) && origin.endsWith(suffix)) {
          if (LABELS.test(origin.slice(prefix.length, origin.length - suffix.length))) {
            lastByPattern = origin;
            return true;
          }
        }
      }
      return false;
    },
  };
}
