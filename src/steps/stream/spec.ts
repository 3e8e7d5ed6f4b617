/** `stream "<format>" { source, event, heartbeat, retry, flush_every, headers, content_type, schema, when, columns }` */
import type { Expr, StepBase } from '../../model/step-common.js';
import type { TypeSpec } from '../../schema/field.js';
import type { Block } from '../../hcl/ast.js';
import { didYouMean } from '../../diag/suggest.js';
import type { LowerContext } from '../../manifest/lower-context.js';
import { decodeBody, type BodySchema } from '../../manifest/body.js';
import { decodeType } from '../../manifest/type-expr.js';
import { readDuration, readExpr, readInt, readString, readStringList } from '../../manifest/values.js';

export type StreamFormat = 'sse' | 'ndjson' | 'csv' | 'raw';

export interface StreamStepSpec extends StepBase {
  readonly kind: 'stream';
  readonly format: StreamFormat;
  /** The sequence or byte reader, e.g. `steps.q.stream`. */
  readonly source: Expr;
  /** sse: static event type name. */
  readonly event?: string;
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
}

// ---------------------------------------------------------------- lower: block -> spec

export const STREAM_FORMATS: readonly StreamFormat[] = ['sse', 'ndjson', 'csv', 'raw'];

const DEFAULT_CONTENT_TYPE: Record<StreamFormat, string> = {
  sse: 'text/event-stream',
  ndjson: 'application/x-ndjson',
  csv: 'text/csv; charset=utf-8',
  raw: 'application/octet-stream',
};

/** Attributes that only some formats take (SPEC.md §4.3). */
const ONLY: Record<string, readonly StreamFormat[]> = {
  event: ['sse'],
  heartbeat: ['sse'],
  retry: ['sse'],
  flush_every: ['ndjson'],
  content_type: ['raw'],
  schema: ['sse', 'ndjson'],
  columns: ['csv'],
};

const STREAM_BODY: BodySchema = {
  attributes: {
    source: { required: true },
    event: {},
    heartbeat: {},
    retry: {},
    flush_every: {},
    headers: {},
    content_type: {},
    schema: {},
    when: {},
    columns: {},
  },
};

export function lower(block: Block, cx: LowerContext): StreamStepSpec | undefined {
  const s = cx.scope;
  const label = block.labels[0]!;
  const d = decodeBody(block.body, STREAM_BODY, s, block);
  const format = STREAM_FORMATS.find((f) => f === label);
  if (!format) {
    const suggestion = didYouMean(label, STREAM_FORMATS);
    s.error('Unknown stream format', block.labelRanges[0], {
      detail: `Stream formats are ${STREAM_FORMATS.join(', ')}; got "${label}".`,
      ...(suggestion ? { suggestion } : {}),
    });
    return undefined;
  }
  for (const [attr, formats] of Object.entries(ONLY)) {
    const a = d.attrs.get(attr);
    if (a && !formats.includes(format)) {
      s.error('Unsupported argument', a.nameRange, { detail: `"${attr}" applies to ${formats.join(' and ')} streams; this stream is ${format}.` });
    }
  }
  const source = readExpr(d.attrs.get('source'), s);
  const event = readString(d.attrs.get('event'), s);
  const heartbeatMs = readDuration(d.attrs.get('heartbeat'), s) ?? (format === 'sse' ? 15_000 : undefined);
  // Sent to the client as `retry: <ms>`, not run on a timer here: 0 (reconnect at once) is valid.
  const retryMs = readDuration(d.attrs.get('retry'), s, { min: 0 });
  const flushEvery = readInt(d.attrs.get('flush_every'), s, { min: 1 }) ?? 1;
  const headers = readExpr(d.attrs.get('headers'), s, 'map');
  const contentType = readString(d.attrs.get('content_type'), s) ?? DEFAULT_CONTENT_TYPE[format];
  const schemaAttr = d.attrs.get('schema');
  const schema = schemaAttr ? decodeType(schemaAttr.expr, s, cx.env.schemas) : undefined;
  const when = readExpr(d.attrs.get('when'), s, 'bool');
  const columns = readStringList(d.attrs.get('columns'), s);
  if (!source) return undefined;
  return {
    kind: 'stream',
    format,
    source,
    ...(event !== undefined ? { event } : {}),
    ...(heartbeatMs !== undefined ? { heartbeatMs } : {}),
    ...(retryMs !== undefined ? { retryMs } : {}),
    flushEvery,
    ...(headers ? { headers } : {}),
    contentType,
    ...(schema ? { schema } : {}),
    ...(when ? { when } : {}),
    ...(columns ? { columns } : {}),
    range: block.range,
    blockPath: s.path,
  };
}
