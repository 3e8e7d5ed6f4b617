/** `createEncoding`: a `stream` step's options -> its format's encoding, built once at boot. */
import { csvEncoding } from './csv.js';
import { ndjsonEncoding } from './ndjson.js';
import { rawEncoding } from './raw.js';
import { sseEncoding } from './sse.js';
import type { EncodingOptions, StreamEncoding, StreamFormat } from './types.js';

const BY_FORMAT: Readonly<Record<StreamFormat, (options: EncodingOptions) => StreamEncoding>> = {
  sse: sseEncoding,
  ndjson: ndjsonEncoding,
  csv: csvEncoding,
  raw: rawEncoding,
};

/**
 * Throws a RangeError for options no response could be framed with (an `event` name holding a line
 * end, `flush_every` below 1, a negative `retry`): the manifest decoder is expected to refuse them
 * first, with a diagnostic.
 */
export function createEncoding(options: EncodingOptions): StreamEncoding {
  const encoding = BY_FORMAT[options.format](options);
  if (options.maxBacklogBytes === undefined) return encoding;
  if (!(Number.isSafeInteger(options.maxBacklogBytes) && options.maxBacklogBytes > 0)) {
    throw new RangeError(`max_backlog must be a positive number of bytes, got ${options.maxBacklogBytes}`);
  }
  // The pump's concern, not the framing's: carried beside it.
  return { ...encoding, maxBacklogBytes: options.maxBacklogBytes };
}
