/**
 * JSON text kept with the value parsed from it, so that writing that same value back costs nothing:
 * a cache hit's body (`respond { body = steps.cached.value }`), an upstream's JSON answered as it came
 * (`body = steps.upstream.body`) or a published message sent to SSE clients is the text read, not a
 * JSON.parse followed by a JSON.stringify of it (about 1 us per request on bench/cache, a fifth of
 * the CPU on bench/proxy's 64 KiB document, and exact where JSON.parse rounds a number past 2^53).
 *
 * Safe because values are never changed in place once made: expressions build new values, and
 * Starlark works on its own copies.
 *
 * The text rides on the value itself, as a private field stamped on it (`SourceText`), not in a
 * WeakMap: a private field is no property (JSON.stringify, Object.keys, spread, for...in and
 * deepStrictEqual never see it, and a copy made by spreading does not carry it, so a changed copy is
 * never mistaken for the original), it lives exactly as long as the value, and it costs a property
 * store: a WeakMap entry cost about 0.2 us per value kept (measured in a loop with parses in between),
 * and its entries for young values made every scavenge walk an ephemeron table.
 */

/** A base "class" whose constructor returns the object it is given (see SourceText). */
const Stampable = function Stampable(value: object) {
  return value;
} as unknown as Constructor;
type Constructor = new (value: object) => object;

/**
 * Stamps the text on an existing object: `super(value)` makes `this` that object, and the field is
 * added to it, the standard way to attach a private field to an object the class did not construct.
 */
class SourceText extends Stampable {
  #text: string;

  constructor(value: object, text: string) {
    super(value);
    this.#text = text;
  }

  /** Stamps `text` on `value`, or replaces the text stamped on it before. */
  static keep(value: object, text: string): void {
    if (#text in value) (value as SourceText).#text = text;
    else new SourceText(value, text);
  }

  static textOf(value: object): string | undefined {
    return #text in value ? (value as SourceText).#text : undefined;
  }
}

/** JSON.parse; an object or array result remembers `text`. Throws as JSON.parse does. */
export function parseKeepingText(text: string): unknown {
  const value: unknown = JSON.parse(text);
  keepSourceText(value, text);
  return value;
}

/** Remembers that `value` (an object or array; anything else is ignored) is `text` parsed whole. */
export function keepSourceText(value: unknown, text: string): void {
  if (typeof value === 'object' && value !== null) SourceText.keep(value, text);
}

/** The text `value` was parsed from by parseKeepingText, if it was. */
export function sourceTextOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? SourceText.textOf(value) : undefined;
}
