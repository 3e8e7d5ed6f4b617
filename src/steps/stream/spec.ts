/** `stream "<format>" { source, replay, last_event_id, event, id, heartbeat, retry, flush_every, headers, content_type, schema, when, columns, neutralize_formulas, max_backlog }` */
import type { Expr, StepSpecBase } from '../../manifest/index.js';
import type { TypeSpec } from '../../schema/index.js';

export type StreamFormat = 'sse' | 'ndjson' | 'csv' | 'raw';

export interface StreamStepSpec extends StepSpecBase {
  readonly kind: 'stream';
  readonly format: StreamFormat;
  /** The sequence or byte reader, e.g. `steps.q.stream`. */
  readonly source: Expr;
  /**
   * sse: what the client missed, from its last id on (that one included), sent before the live
   * `source`'s items (./resume.ts). Requires `id`.
   */
  readonly replay?: Expr;
  /** sse with `replay`: the client's last id; default: its `Last-Event-ID` request header. */
  readonly lastEventId?: Expr;
  /** sse: the event type name of every item, when `event` is a constant. */
  readonly event?: string;
  /** sse: the event type name per item (`event = item.kind`), when it reads `item`. */
  readonly eventOf?: Expr;
  /** sse: the `id:` of each item, an expression in which `item` is the item being sent. */
  readonly id?: Expr;
  /** sse: default 15 000 ms. */
  readonly heartbeatMs?: number;
  /** sse: sent once as `retry: <ms>`. */
  readonly retryMs?: number;
  /** ndjson: default 1. */
  readonly flushEvery: number;
  readonly headers?: Expr;
  /** The configured `content_type`, else the format's default (SPEC.md §4.3). */
  readonly contentType: string;
  /** sse, ndjson: fields kept on output. */
  readonly schema?: TypeSpec;
  /** Absent: the stream always runs and ends the pipeline. */
  readonly when?: Expr;
  /** csv: header row and column order. */
  readonly columns?: readonly string[];
  /** csv: string cells that a spreadsheet would run as formulas get a leading `'` (OWASP CSV injection). */
  readonly neutralizeFormulas?: boolean;
  /** A live source's backlog for one client, in bytes, past which it is cut off (default: src/stream's 4 MiB). */
  readonly maxBacklogBytes?: number;
}
