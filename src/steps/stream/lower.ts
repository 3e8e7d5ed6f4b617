/** `stream` blocks -> StreamStepSpec: the decoder of the kind's definition. */
import type { Attribute, Block } from '../../hcl/index.js';
import { didYouMean } from '../../diag/index.js';
import {
  ITEM_ROOTS,
  type BodySchema,
  type DecodeScope,
  type LowerContext,
  decodeBody,
  decodeType,
  readBool,
  readDuration,
  readExpr,
  readInt,
  readSize,
  readString,
  readStringList,
} from '../../manifest/index.js';
import type { StreamFormat, StreamStepSpec } from './spec.js';

export const STREAM_FORMATS: readonly StreamFormat[] = ['sse', 'ndjson', 'csv', 'raw'];

const DEFAULT_CONTENT_TYPE: Record<StreamFormat, string> = {
  sse: 'text/event-stream',
  ndjson: 'application/x-ndjson',
  csv: 'text/csv; charset=utf-8',
  raw: 'application/octet-stream',
};

/** Attributes that only some formats take (SPEC.md §4.3). */
const ONLY: Record<string, readonly StreamFormat[]> = {
  replay: ['sse'],
  last_event_id: ['sse'],
  event: ['sse'],
  id: ['sse'],
  heartbeat: ['sse'],
  retry: ['sse'],
  flush_every: ['ndjson'],
  content_type: ['raw'],
  schema: ['sse', 'ndjson'],
  columns: ['csv'],
  neutralize_formulas: ['csv'],
};

const STREAM_BODY: BodySchema = {
  attributes: {
    source: { required: true },
    replay: {},
    last_event_id: {},
    event: {},
    id: {},
    heartbeat: {},
    retry: {},
    flush_every: {},
    headers: {},
    content_type: {},
    schema: {},
    when: {},
    columns: {},
    neutralize_formulas: {},
    max_backlog: {},
  },
};

/**
 * `max_backlog`'s range. Below 64 KiB a client would be cut off by an ordinary burst (the socket's own
 * buffer is 16 KiB); above 1 GiB it is no bound at all.
 */
const MIN_BACKLOG = 64 * 1024;
const MAX_BACKLOG = 1024 * 1024 * 1024;

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
  const replay = readExpr(d.attrs.get('replay'), s);
  const lastEventId = readExpr(d.attrs.get('last_event_id'), s);
  // A constant names every event; an expression of `item` names each one.
  const eventAttr = d.attrs.get('event');
  const eventExpr = readExpr(eventAttr, s, 'string', ITEM_ROOTS);
  const event = eventExpr?.constant ? readString(eventAttr, s) : undefined;
  const eventOf = eventExpr && !eventExpr.constant ? eventExpr : undefined;
  // Evaluated per item, with `item` bound to the item being sent.
  const id = readExpr(d.attrs.get('id'), s, undefined, ITEM_ROOTS);
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
  const neutralizeFormulas = readBool(d.attrs.get('neutralize_formulas'), s);
  const maxBacklogBytes = readBacklog(d.attrs.get('max_backlog'), s);
  const replayAttr = d.attrs.get('replay');
  if (replayAttr && format === 'sse' && !d.attrs.get('id')) {
    s.error('Replay without id', replayAttr.nameRange, {
      detail: 'A stream with "replay" needs "id" (for example id = item.seq): the ids order the missed and the live items and tell which the client has.',
    });
  }
  const lastEventIdAttr = d.attrs.get('last_event_id');
  if (lastEventIdAttr && format === 'sse' && !replayAttr) {
    s.error('Unsupported argument', lastEventIdAttr.nameRange, { detail: '"last_event_id" says where "replay" starts; this stream has no "replay".' });
  }
  if (!source) return undefined;
  return {
    kind: 'stream',
    format,
    source,
    ...(replay ? { replay } : {}),
    ...(lastEventId ? { lastEventId } : {}),
    ...(event !== undefined ? { event } : {}),
    ...(eventOf ? { eventOf } : {}),
    ...(id ? { id } : {}),
    ...(heartbeatMs !== undefined ? { heartbeatMs } : {}),
    ...(retryMs !== undefined ? { retryMs } : {}),
    flushEvery,
    ...(headers ? { headers } : {}),
    contentType,
    ...(schema ? { schema } : {}),
    ...(when ? { when } : {}),
    ...(columns ? { columns } : {}),
    ...(neutralizeFormulas ? { neutralizeFormulas } : {}),
    ...(maxBacklogBytes !== undefined ? { maxBacklogBytes } : {}),
    range: block.range,
    blockPath: s.path,
  };
}

/** `max_backlog`: a size such as "8MiB", within MIN_BACKLOG to MAX_BACKLOG. */
function readBacklog(attr: Attribute | undefined, s: DecodeScope): number | undefined {
  const bytes = readSize(attr, s);
  if (bytes === undefined) return undefined;
  if (bytes < MIN_BACKLOG || bytes > MAX_BACKLOG) {
    s.error('Invalid max_backlog', attr!.expr.range, {
      detail: `"max_backlog" must be from 64KiB to 1GiB (the bytes a live source may hold for one client that reads slowly); got ${bytes} bytes.`,
    });
    return undefined;
  }
  return bytes;
}
