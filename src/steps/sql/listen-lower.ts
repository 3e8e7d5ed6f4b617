/**
 * `sql "<name>" { connection, listen = <channel>, timeout }` -> SqlStepSpec: a step that listens
 * rather than queries (./listen.ts). The channel is a string expression (a constant, or computed
 * from the request); what only a query takes (`query`, `args`, `stream`, `catch`) is refused, and
 * so is a transaction: LISTEN is delivered on the listening connection, never on the transaction's.
 */
import type { Block } from '../../hcl/index.js';
import { type ConnectionRef, type DecodedBody, type LowerContext, readDuration, readExpr } from '../../manifest/index.js';
import type { SqlStepSpec } from './spec.js';

/** Attributes of a query that a listening step does not take, and why. */
const QUERY_ONLY: Readonly<Record<string, string>> = {
  query: 'A sql step either runs a query or listens to a channel: remove "query" or "listen".',
  args: 'A listening step has no query to bind arguments to.',
  stream: 'A listening step always outputs `stream` (the channel\'s notifications): remove "stream".',
};

export function lowerListen(block: Block, d: DecodedBody, connection: ConnectionRef | undefined, cx: LowerContext): SqlStepSpec | undefined {
  const s = cx.scope;
  const listenAttr = d.attrs.get('listen')!;
  let ok = true;
  for (const [name, detail] of Object.entries(QUERY_ONLY)) {
    const attr = d.attrs.get(name);
    if (attr === undefined) continue;
    s.error(name === 'query' ? 'Conflicting arguments' : 'Unsupported argument', attr.nameRange, { detail });
    ok = false;
  }
  for (const c of d.blocks.filter((b) => b.type === 'catch')) {
    s.error('Unsupported block type', c.typeRange, {
      detail: 'A listening step runs no query whose error a catch could answer; a lost listening connection ends its streams (event: gap).',
    });
    ok = false;
  }
  if (cx.place === 'transaction') {
    s.error('Listening sql step in a transaction', listenAttr.nameRange, {
      detail:
        "Notifications arrive on the connection's own listening connection, not on the transaction's. Listen from a sql step outside the transaction; a NOTIFY (SELECT pg_notify(...)) inside one is delivered when it commits.",
    });
    ok = false;
  }
  const listen = readExpr(listenAttr, s, 'string');
  const timeoutMs = readDuration(d.attrs.get('timeout'), s);
  if (!ok || listen === undefined || connection === undefined) return undefined;
  return {
    kind: 'sql',
    name: block.labels[0]!,
    connection,
    query: '',
    parameters: [],
    args: new Map(),
    stream: false,
    listen,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    catches: [],
    range: block.range,
    blockPath: s.path,
  };
}
