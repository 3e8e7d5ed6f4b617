/**
 * JSON text kept with the value parsed from it, so that writing that same value back costs nothing
 * (a cache hit, an upstream's JSON answered as it came, a message sent to SSE clients): no JSON.parse
 * then JSON.stringify, and exact where JSON.parse rounds a number past 2^53 (bench/cache README
 * "Stored text answered as it is", bench/proxy README). Safe because values are never changed in place.
 *
 * The text is a private field stamped on the value (`SourceText`), not a WeakMap entry: no property
 * any serialiser, spread or deepStrictEqual sees (a spread copy does not carry it), it lives as long
 * as the value, and a WeakMap cost about 0.2 us per value plus an ephemeron table every scavenge walks.
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
