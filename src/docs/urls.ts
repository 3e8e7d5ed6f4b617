/**
 * The URLs a documentation page writes: relative to the page, so a page keeps working behind a
 * proxy that mounts the service under a prefix; and the spec endpoint a page links to, the one
 * nearest by path (DECISIONS.md §5).
 */

/** `/a/b` -> `['a', 'b']`; a trailing slash leaves an empty last segment (`/a/` -> `['a', '']`). */
function segmentsOf(path: string): string[] {
  return path.split('/').slice(1);
}

const isParam = (segment: string) => segment.startsWith('{');

/**
 * `to` (a route path) as a URL relative to a page served at `from`, or undefined when the part of
 * `to` that differs from `from` holds a parameter (its value is not known when the page is built)
 * or `from` ends in a catch-all (its depth is not known).
 */
export function relativeUrl(from: string, to: string): string | undefined {
  const page = segmentsOf(from);
  if (page.some((s) => s.endsWith('...}'))) return undefined;
  const dir = page.slice(0, -1);
  const target = segmentsOf(to);
  let common = 0;
  while (common < dir.length && common < target.length - 1 && dir[common] === target[common]) common++;
  const rest = target.slice(common);
  if (rest.some(isParam)) return undefined;
  const up = dir.length - common;
  return (up === 0 ? './' : '../'.repeat(up)) + rest.join('/');
}

/**
 * Of the spec endpoints' paths, the one sharing the longest run of leading segments with the page's
 * path (the first declared on a tie); paths with parameters are left out, no URL can name them.
 */
export function nearestPath(pagePath: string, candidates: readonly string[]): string | undefined {
  const page = segmentsOf(pagePath);
  let best: string | undefined;
  let bestShared = -1;
  for (const path of candidates) {
    const segments = segmentsOf(path);
    if (segments.some(isParam)) continue;
    let shared = 0;
    while (shared < page.length && shared < segments.length && page[shared] === segments[shared]) shared++;
    if (shared > bestShared) {
      best = path;
      bestShared = shared;
    }
  }
  return best;
}
