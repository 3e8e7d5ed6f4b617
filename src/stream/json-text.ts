/** JSON text of one stream item (sse, ndjson, csv cells): exact BigInt, and a typed error for what JSON cannot carry. */
import { sourceTextOf, stringifyExact } from '../json/index.js';
import { StreamItemError } from './types.js';

const LINE_BREAK = /[\r\n]/;

/**
 * The item's JSON text. A cycle, a throwing `toJSON` or getter, or a value JSON has no text for
 * (`undefined`, a function, a symbol) is a `StreamItemError`: the stream ends with an error instead
 * of sending a frame the client cannot parse.
 */
export function jsonText(value: unknown, format: string): string {
  // A message decoded from the store's JSON text (a pub/sub message): that text, unless it breaks
  // lines (stored pretty-printed), which would break the frame; JSON.stringify never does.
  const source = sourceTextOf(value);
  if (source !== undefined && !LINE_BREAK.test(source)) return source;
  let text: string | undefined;
  try {
    text = stringifyExact(value);
  } catch (error) {
    throw new StreamItemError(`${format}: the item cannot be encoded as JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  // JSON.stringify returns undefined (typed as string) for undefined, functions and symbols.
  if (typeof text !== 'string') throw new StreamItemError(`${format}: the item has no JSON text (${typeof value})`);
  return text;
}
