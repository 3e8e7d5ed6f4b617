/**
 * JSON text kept with the value parsed from it, so that writing that same value back costs nothing:
 * a cache hit's body (`respond { body = steps.cached.value }`) or a published message sent to SSE
 * clients is the text read from the store, not a JSON.parse followed by a JSON.stringify of it (about
 * 1 us per request on bench/cache, and exact where JSON.parse rounds a number past 2^53).
 *
 * Safe because values are never changed in place once made: expressions build new values, and
 * Starlark works on its own copies. A WeakMap, so the text lives exactly as long as its value.
 */
const SOURCES = new WeakMap<object, string>();

/** JSON.parse; an object or array result remembers `text`. Throws as JSON.parse does. */
export function parseKeepingText(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (typeof value === 'object' && value !== null) SOURCES.set(value, text);
  return value;
}

/** The text `value` was parsed from by parseKeepingText, if it was. */
export function sourceTextOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? SOURCES.get(value) : undefined;
}
