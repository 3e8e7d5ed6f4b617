/**
 * The encoders' contract: how items pulled from a stream source become bytes on the wire
 * (SPEC.md §4.3, DECISIONS.md §6). An encoding is built once per `stream` step at boot; each
 * response opens an encoder of its own (per-response state: CSV's header row, SSE's `retry:`).
 * Encoders only frame; writing, backpressure, heartbeats and ending are the pump's (pump.ts).
 */
import type { Problem } from '../problem/index.js';

export type StreamFormat = 'sse' | 'ndjson' | 'csv' | 'raw';

export interface EncodingOptions {
  readonly format: StreamFormat;
  /** The response's Content-Type: the configured `content_type`, else the format's default. */
  readonly contentType: string;
  /** sse: the `event:` line of every item. */
  readonly event?: string;
  /** sse: the `event:` line of an item (the step's `event` expression with `item` bound); overrides `event`. */
  readonly eventOf?: (item: unknown) => unknown;
  /** sse: `retry: <ms>` sent once at the start. */
  readonly retryMs?: number;
  /** sse: the interval of `: heartbeat` comments (default 15 s; set by the step). */
  readonly heartbeatMs?: number;
  /** ndjson: items buffered before a write (default 1). */
  readonly flushEvery?: number;
  /** csv: the header row and column order; else the first item's keys. */
  readonly columns?: readonly string[];
  /** csv: a string cell (or a header from an item's keys) starting with = + - @ tab or CR gets a leading `'` (csv.ts). */
  readonly neutralizeFormulas?: boolean;
  /** sse: the `id:` of an item (the step's `id` expression with `item` bound); undefined: no id line. */
  readonly idOf?: (item: unknown) => unknown;
  /** sse, ndjson: the item as sent (the step's `schema` keeping only declared fields). */
  readonly mask?: (item: unknown) => unknown;
  /** A live source's backlog for one client, in bytes (the step's `max_backlog`; pump.ts has the default). */
  readonly maxBacklogBytes?: number;
  /** sse: the stream resumes from the client's last id (`replay`): a lost live source is no gap for it. */
  readonly resumable?: boolean;
}

/** One `stream` step's encoding, built at boot. */
export interface StreamEncoding {
  readonly format: StreamFormat;
  readonly contentType: string;
  /** Headers the format itself requires (sse: `Cache-Control: no-cache`, `X-Accel-Buffering: no`). */
  readonly headers: Readonly<Record<string, string>>;
  /** sse: ms between heartbeat comments; undefined: no heartbeats. */
  readonly heartbeatMs: number | undefined;
  /** Items framed together before one write (ndjson `flush_every`; 1 elsewhere). */
  readonly flushEvery: number;
  /** The step's `max_backlog`, when set (EncodingOptions.maxBacklogBytes). */
  readonly maxBacklogBytes?: number;
  /** A fresh encoder for one response. */
  open(): StreamEncoder;
}

/** One response's framing. Every method is synchronous and returns what to write ('' for nothing). */
export interface StreamEncoder {
  /** Before the first item (sse: `retry: <ms>\n\n` when set). */
  start(): string;
  /**
   * One item's frame (csv: the header row before the first). Throws a `StreamItemError` for an item
   * the format cannot carry (a raw item that is neither bytes nor text, a value JSON cannot encode).
   */
  item(value: unknown): string | Uint8Array;
  /**
   * The final frame of a stream that failed after its first byte (sse: `event: error` with the
   * problem, ndjson: `{"error": <problem>}`), or `undefined` when the format has no way to say it
   * (csv, raw): then the connection is aborted, so the client sees a truncated transfer.
   */
  error(problem: Problem): string | undefined;
  /** sse: `: heartbeat\n\n`; '' for the other formats. */
  heartbeat(): string;
  /** The last words of a stream the server ends as it shuts down (sse: a comment); '' when none. */
  shutdown(): string;
  /**
   * The last frame of a stream whose live source lost its upstream (sse: `event: gap`, then the
   * stream ends and EventSource reconnects). Absent: the format cannot say it, and the connection is
   * cut short (a truncated transfer), so the client knows the stream did not end normally.
   */
  lost?(): string;
}

/** An item the format cannot encode: the stream ends with an error. */
export class StreamItemError extends Error {
  override readonly name = 'StreamItemError';
}

/**
 * An item that is no item: the events between two ids are lost for this client (a resumed stream
 * whose last id is no longer kept, src/steps/stream/resume.ts). `sse` frames it as `event: gap`
 * with `detail` as its JSON data; it carries no `id:`, so the client's last id stays what it was.
 */
export class StreamGap {
  constructor(readonly detail: Readonly<Record<string, string>>) {}
}
