/**
 * src/stream: how items pulled from a stream source become bytes on the wire (SPEC.md §4.3,
 * DECISIONS.md §6). `createEncoding` builds a step's encoding at boot; the pump writes what its
 * encoders frame.
 */
export { createEncoding } from './encoding.js';
export { StreamGap, StreamItemError, type EncodingOptions, type StreamEncoder, type StreamEncoding, type StreamFormat } from './types.js';
export { type DirectWrites, Pump, type PumpOptions, type PumpResult, type StreamEndReason } from './pump.js';
