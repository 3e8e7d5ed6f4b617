/** `redis` blocks -> RedisStepSpec: the decoder of the kind's definition. */
import type { Block } from '../../hcl/index.js';
import {
  type BodySchema,
  type LowerContext,
  blockHeader,
  decodeBody,
  readChoice,
  readConnection,
  readDuration,
  readExpr,
  readInt,
} from '../../manifest/index.js';
import type { RedisOp, RedisStepSpec } from './spec.js';

export const REDIS_OPS: readonly RedisOp[] = ['GET', 'SET', 'DEL', 'EXISTS', 'INCR', 'EXPIRE', 'PUBLISH', 'SUBSCRIBE', 'XADD', 'XRANGE', 'XREVRANGE', 'XREAD'];

/** Which operand attributes each operation takes; `must` are required. */
const OPERANDS: Record<RedisOp, { must: readonly string[]; may: readonly string[] }> = {
  GET: { must: ['key'], may: [] },
  SET: { must: ['key', 'value'], may: ['ttl'] },
  DEL: { must: ['key'], may: [] },
  EXISTS: { must: ['key'], may: [] },
  INCR: { must: ['key'], may: [] },
  EXPIRE: { must: ['key', 'ttl'], may: [] },
  PUBLISH: { must: ['channel', 'value'], may: [] },
  SUBSCRIBE: { must: ['channel'], may: [] },
  XADD: { must: ['key', 'fields'], may: ['id', 'maxlen', 'minid'] },
  XRANGE: { must: ['key'], may: ['start', 'end', 'count'] },
  XREVRANGE: { must: ['key'], may: ['start', 'end', 'count'] },
  XREAD: { must: ['key'], may: [] },
};

/** Every operand attribute: one a command does not take is refused. */
const OPERAND_NAMES = ['key', 'value', 'ttl', 'channel', 'fields', 'id', 'maxlen', 'minid', 'start', 'end', 'count'];

const REDIS_BODY: BodySchema = {
  attributes: {
    connection: {},
    command: {},
    op: {},
    key: {},
    value: {},
    ttl: {},
    channel: {},
    fields: {},
    id: {},
    maxlen: {},
    minid: {},
    start: {},
    end: {},
    count: {},
    timeout: {},
  },
};

export function lower(block: Block, cx: LowerContext): RedisStepSpec | undefined {
  const s = cx.scope;
  const d = decodeBody(block.body, REDIS_BODY, s, block);
  const connection = readConnection(d.attrs.get('connection'), 'redis', s, cx.env.connections, block.typeRange);
  const command = d.attrs.get('command');
  const opAttr = d.attrs.get('op');
  if (command && opAttr) s.error('Conflicting arguments', opAttr.nameRange, { detail: '`op` is the route-dialect spelling of `command`; set only one.' });
  if (!command && !opAttr) {
    s.error('Missing required argument', blockHeader(block), {
      detail: `The operation is required: command = "GET" (or op = "GET"); one of ${REDIS_OPS.join(', ')}.`,
    });
    return undefined;
  }
  const op = readChoice(command ?? opAttr, s, REDIS_OPS, true);
  if (!op) return undefined;
  const { must, may } = OPERANDS[op];
  let ok = true;
  for (const a of must) {
    if (!d.attrs.has(a)) {
      s.error('Missing required argument', blockHeader(block), { detail: `${op} needs "${a}".` });
      ok = false;
    }
  }
  for (const a of OPERAND_NAMES) {
    const attr = d.attrs.get(a);
    if (attr && !must.includes(a) && !may.includes(a)) {
      s.error('Unsupported argument', attr.nameRange, { detail: `"${a}" is not used by ${op}.` });
      ok = false;
    }
  }
  const key = readExpr(d.attrs.get('key'), s);
  const value = readExpr(d.attrs.get('value'), s);
  const channel = readExpr(d.attrs.get('channel'), s, 'string');
  // A ttl is not a timer here (the store expires the key), so it may exceed 24.8 days; 0 is refused by Redis.
  const ttlMs = readDuration(d.attrs.get('ttl'), s, { min: 1 });
  const timeoutMs = readDuration(d.attrs.get('timeout'), s);
  const fields = readExpr(d.attrs.get('fields'), s, 'map');
  const id = readExpr(d.attrs.get('id'), s, 'string');
  // MAXLEN ~ 0 would empty the stream it writes to; a retention keeps something.
  const maxLen = readInt(d.attrs.get('maxlen'), s, { min: 1 });
  const minId = readExpr(d.attrs.get('minid'), s, 'string');
  const maxLenAttr = d.attrs.get('maxlen');
  const minIdAttr = d.attrs.get('minid');
  if (maxLenAttr && minIdAttr) {
    s.error('Conflicting arguments', minIdAttr.nameRange, { detail: 'XADD keeps entries by count (maxlen) or by id (minid), not both.' });
    ok = false;
  }
  const start = readExpr(d.attrs.get('start'), s, 'string');
  const end = readExpr(d.attrs.get('end'), s, 'string');
  const count = readExpr(d.attrs.get('count'), s, 'int');
  if (!ok || !connection) return undefined;
  return {
    kind: 'redis',
    name: block.labels[0]!,
    blockType: block.type === 'kv' ? 'kv' : 'redis',
    connection,
    op,
    ...(key ? { key } : {}),
    ...(value ? { value } : {}),
    ...(ttlMs !== undefined ? { ttlMs } : {}),
    ...(channel ? { channel } : {}),
    ...(fields ? { fields } : {}),
    ...(id ? { id } : {}),
    ...(maxLen !== undefined ? { maxLen } : {}),
    ...(minId ? { minId } : {}),
    ...(start ? { start } : {}),
    ...(end ? { end } : {}),
    ...(count ? { count } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    range: block.range,
    blockPath: s.path,
  };
}
