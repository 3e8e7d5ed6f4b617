/** Raw bytes (SPEC.md §4.3): an upstream body or any byte reader, passed through as it comes. */
import type { EncodingOptions, StreamEncoder, StreamEncoding } from './types.js';
import { StreamItemError } from './types.js';

const encoder: StreamEncoder = {
  start: () => '',
  item(value) {
    // Buffer is a Uint8Array; a string is written as UTF-8 text.
    if (value instanceof Uint8Array || typeof value === 'string') return value;
    throw new StreamItemError(`raw: an item must be bytes or text, got ${value === null ? 'null' : typeof value}`);
  },
  // Bytes have no way to say "failed": the connection is aborted and the client sees a truncated body.
  error: () => undefined,
  heartbeat: () => '',
  shutdown: () => '',
};

export function rawEncoding(options: EncodingOptions): StreamEncoding {
  return {
    format: 'raw',
    contentType: options.contentType,
    headers: {},
    heartbeatMs: undefined,
    flushEvery: 1,
    open: () => encoder,
  };
}
