/** Newline-delimited JSON (SPEC.md §4.3, DECISIONS.md §6): one JSON value per line, an error as a last `{"error": ...}` line. */
import type { Problem } from '../problem/index.js';
import { jsonText } from './json-text.js';
import type { EncodingOptions, StreamEncoder, StreamEncoding } from './types.js';

export function ndjsonEncoding(options: EncodingOptions): StreamEncoding {
  const { mask } = options;
  const flushEvery = options.flushEvery ?? 1;
  if (!Number.isInteger(flushEvery) || flushEvery < 1) throw new RangeError(`ndjson: flush_every must be an integer >= 1, got ${flushEvery}`);
  // JSON text never holds a raw line end, so one value is always one line (a string item is a JSON string).
  const encoder: StreamEncoder = {
    start: () => '',
    item: mask ? (value) => jsonText(mask(value), 'ndjson') + '\n' : (value) => jsonText(value, 'ndjson') + '\n',
    error: (problem: Problem) => `{"error":${jsonText(problem, 'ndjson')}}\n`,
    heartbeat: () => '',
    shutdown: () => '',
  };
  return {
    format: 'ndjson',
    contentType: options.contentType,
    headers: {},
    heartbeatMs: undefined,
    flushEvery,
    open: () => encoder,
  };
}
