/** `sql` blocks -> SqlStepSpec: the decoder of the kind's definition. */
import {
  type BodySchema,
  CATCH_RULE,
  type CatchSpec,
  type ConnectionRef,
  type Expr,
  type LowerContext,
  blockHeader,
  blocksOf,
  decodeBody,
  decodeCatches,
  readBool,
  readConnection,
  readDuration,
  readExpr,
  readString,
  SQL_KINDS,
  staticKey,
} from '../../manifest/index.js';
import type { Attribute, Block } from '../../hcl/index.js';
import { didYouMean } from '../../diag/index.js';
import { lowerListen } from './listen-lower.js';
import { sqlParameters } from './parameters.js';
import type { SqlStepSpec } from './spec.js';

const SQL_BODY: BodySchema = {
  attributes: { connection: {}, query: {}, listen: {}, args: {}, stream: {}, timeout: {} },
  blocks: { catch: CATCH_RULE },
};

export function lower(block: Block, cx: LowerContext): SqlStepSpec | undefined {
  const s = cx.scope;
  const d = decodeBody(block.body, SQL_BODY, s, block);
  const connAttr = d.attrs.get('connection');
  let connection: ConnectionRef | undefined;
  if (cx.place === 'transaction') {
    if (connAttr)
      s.error('Unsupported argument', connAttr.nameRange, {
        detail: 'A step inside a transaction runs on the transaction\'s connection; remove "connection".',
      });
  } else {
    connection = readConnection(connAttr, d.attrs.has('listen') ? 'postgres' : SQL_KINDS, s, cx.env.connections, block.typeRange);
  }
  if (d.attrs.has('listen')) return lowerListen(block, d, connection, cx);
  const queryAttr = d.attrs.get('query');
  if (!queryAttr) {
    s.error('Missing required argument', blockHeader(block), {
      detail: 'A sql step needs "query" (or listen = "<channel>" to stream a channel\'s notifications).',
    });
  }
  const query = readString(queryAttr, s);
  const parameters = query !== undefined ? sqlParameters(query) : [];

  const args = new Map<string, Expr>();
  const argsAttr = d.attrs.get('args');
  let argsMap: Expr | undefined;
  if (argsAttr) {
    if (argsAttr.expr.kind !== 'ObjectCons') {
      // Computed (`merge(defaults, ctx.request.body)`): its keys are known per request only.
      argsMap = readExpr(argsAttr, s, 'map');
    } else {
      for (const item of argsAttr.expr.items) {
        const name = staticKey(item.key);
        if (name === undefined) {
          s.error('Invalid argument name', item.key.range, { detail: 'Argument names are written as bare names matching @name in the query.' });
          continue;
        }
        if (args.has(name)) {
          s.error('Duplicate argument', item.key.range, { detail: `Argument "${name}" is set twice.` });
          continue;
        }
        const e = readExpr({ kind: 'Attribute', name, expr: item.value, range: item.range, nameRange: item.key.range }, s);
        if (e) args.set(name, e);
        if (query !== undefined && !parameters.includes(name)) {
          const suggestion = didYouMean(name, parameters);
          s.warning('Unused argument', item.key.range, {
            detail: `The query has no parameter @${name}.`,
            ...(suggestion ? { suggestion } : {}),
          });
        }
      }
    }
  }
  if (query !== undefined && queryAttr && (argsMap === undefined || argsMap.constant)) {
    const declared =
      argsMap !== undefined
        ? Object.keys(argsMap.value as object)
        : argsAttr?.expr.kind === 'ObjectCons'
          ? argsAttr.expr.items.map((i) => staticKey(i.key))
          : [];
    for (const p of parameters) {
      if (!declared.includes(p)) {
        s.error('Missing query argument', queryAttr.expr.range, {
          detail: `The query uses @${p}, but "args" gives it no value.`,
          ...(argsAttr ? {} : { suggestion: `args = { ${p} = ... }` }),
        });
      }
    }
  }
  const streamAttr = d.attrs.get('stream');
  const stream = readBool(streamAttr, s) ?? false;
  const timeoutMs = readDuration(d.attrs.get('timeout'), s);
  const catches = decodeCatches(blocksOf(d, 'catch'), s);
  if (stream) refuseStreamingMisuse(streamAttr!, catches, cx);
  if (query === undefined || (cx.place !== 'transaction' && !connection)) return undefined;
  return {
    kind: 'sql',
    name: block.labels[0]!,
    ...(connection ? { connection } : {}),
    query,
    ...(queryAttr ? { queryRange: queryAttr.expr.range } : {}),
    parameters,
    args,
    ...(argsMap !== undefined ? { argsMap } : {}),
    stream,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    catches,
    range: block.range,
    blockPath: s.path,
  };
}

/**
 * What a streaming step cannot honour: a transaction commits (and its client goes back) when its body
 * ends, before a stream step could read the cursor; a `catch` answers instead of the step, but by
 * the time a row fails the response has started.
 */
function refuseStreamingMisuse(streamAttr: Attribute, catches: readonly CatchSpec[], cx: LowerContext): void {
  if (cx.place === 'transaction') {
    cx.scope.error('Streaming sql step in a transaction', streamAttr.range, {
      detail:
        'A transaction commits and gives its connection back when its body ends, before a stream step could read the rows. Stream from a sql step outside the transaction, with its own connection.',
    });
  }
  for (const c of catches) {
    cx.scope.error('Catch on a streaming sql step', c.range, {
      detail:
        "With stream = true the rows are sent as they are read: when a row fails, the response has started and cannot become the catch's. Remove the catch, or stream = true.",
    });
  }
}
