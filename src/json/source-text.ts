/**
 * JSON text kept with the value parsed from it, so that writing that same value back costs nothing:
 * a cache hit's body (`respond { body = steps.cached.value }`), an upstream's JSON answered as it came
 * (`body = steps.upstream.body`) or a published message sent to SSE clients is the text read, not a
 * JSON.parse followed by a JSON.stringify of it (about 1 us per request on bench/cache, a fifth of
 * the CPU on bench/proxy's 64 KiB document, and exact where JSON.parse rounds a number past 2^53).
 *
 * Safe because values are never changed in place once made: expressions build new values, and
 * Starlark works on its own copies. A WeakMap, so the text lives exactly as long as its value.
 */
const SOURCES = new WeakMap<object, string>();

/** JSON.parse; an object or array result remembers `text`. Throws as JSON.parse does. */
export function parseKeepingText(text: string): unknown {
  const value: unknown = JSON.parse(text);
  keepSourceText(value, text);
  return value;
}

/** Remembers that `value` (an object or array; anything else is ignored) is `text` parsed whole. */
export function keepSourceText(value: unknown, text: string): void {
  if (typeof value === 'object' && value !== null) SOURCES.set(value, text);
}

/** The text `value` was parsed from by parseKeepingText, if it was. */
export function sourceTextOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? SOURCES.get(value) : undefined;
}
