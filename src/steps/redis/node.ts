/**
 * `redis` / `kv` as a graph step: the `key`, `value` and `channel` expressions are evaluated per
 * request, the command runs on the connection's handle (a Redis server or the memory store, alike),
 * and its reply becomes the output `value` (SPEC.md §2.5, docs/redis.md):
 *
 *   GET      the value (JSON decoded, ../text-values.ts), null on a miss
 *   SET      "OK"                        DEL      keys removed (0 or 1)
 *   EXISTS   true / false                INCR     the new count
 *   EXPIRE   true when the key exists    PUBLISH  subscriber connections reached
 *   SUBSCRIBE  output `stream` instead: the channel's messages, a live pulled source (../live-source.ts)
 *   XADD     the new entry's id           XRANGE / XREVRANGE  a list of entries `{ id, fields }`
 *   XREAD    output `stream`: the entries added to the key, followed live (./stream-fanout.ts)
 *
 * Time-outs and cancellation: the step's `timeout` is the node's, so the graph stops waiting when it
 * passes (a 504), as it does when the request times out or the client goes away; the command is
 * then abandoned, its reply ignored. That is all a signal could do here, since Redis cannot take a
 * command back once it is sent, so the step does not read `ctx.signal`: creating and aborting that
 * AbortController per request halved the throughput of a cache hit (bench/cache/README.md).
 *
 * SUBSCRIBE subscribes when the step runs, and the step waits for it: Redis down fails the step
 * (dependency-unavailable, a 503 before any byte is sent), and every message published once it has
 * answered reaches the stream. The subscription is left when the stream's reader stops, or when the
 * run ends (the step's release), whichever comes first.
 */
import type { RunContext, StepNodeDef } from '../../../graph/index.js';
import type { RedisHandle } from '../../connectors/index.js';
import type { Expr } from '../../model/index.js';
import type { EndpointScope } from '../contract.js';
import type { NodeCompiler } from '../definition.js';
import { countOperand, entryFields, entryValue } from './entries.js';
import { joinChannel } from './fanout.js';
import type { RedisStepSpec } from './spec.js';
import { joinStream } from './stream-fanout.js';
import { decodeValue, encodeValue, textOperand } from '../text-values.js';

type Command = (scope: EndpointScope, ctx: RunContext) => unknown;

export const compileRedis: NodeCompiler<RedisStepSpec> = (spec, env) => {
  // The decoder accepts only redis connections for redis steps.
  const handle = env.connection({ kind: 'redis', name: spec.connection.name });
  const node: StepNodeDef<EndpointScope> = {
    type: 'step',
    kind: spec.blockType,
    id: env.idOf(spec),
    name: spec.name,
    label: `${spec.op} on ${spec.connection.name}`,
    reads: env.readsOf([spec.key, spec.value, spec.channel, spec.fields, spec.id, spec.minId, spec.start, spec.end, spec.count]),
    meta: spec,
    ...(spec.timeoutMs !== undefined ? { timeout: spec.timeoutMs } : {}),
    run: commandOf(spec, handle),
  };
  return node;
};

/** SET's reply: one frozen object for every request (outputs are read, never written). */
const OK = Object.freeze({ value: 'OK' });

function commandOf(spec: RedisStepSpec, handle: RedisHandle): Command {
  const step = `${spec.blockType} "${spec.name}"`;
  const text = (expr: Expr | undefined, what: string) => (scope: EndpointScope) => textOperand(expr!.evaluate(scope), what, step);
  /** An optional operand: its text, or `fallback` when the attribute is absent. */
  const textOr = (expr: Expr | undefined, what: string, fallback: string) => (expr === undefined ? () => fallback : text(expr, what));
  const key = text(spec.key, 'key');
  const channel = text(spec.channel, 'channel');
  const value = (scope: EndpointScope): string => encodeValue(spec.value!.evaluate(scope));
  switch (spec.op) {
    case 'GET':
      return (scope) => handle.get(key(scope)).then(fromText);
    case 'SET': {
      const ttlMs = spec.ttlMs;
      return (scope) => handle.set(key(scope), value(scope), { ttlMs }).then(() => OK);
    }
    case 'DEL':
      return (scope) => handle.del(key(scope)).then(asValue);
    case 'EXISTS':
      return (scope) => handle.exists(key(scope)).then(asTruth);
    case 'INCR':
      return (scope) => handle.incr(key(scope)).then(asValue);
    case 'EXPIRE': {
      // The decoder requires ttl for EXPIRE.
      const ttlMs = spec.ttlMs!;
      return (scope) => handle.expire(key(scope), ttlMs).then(asTruth);
    }
    case 'PUBLISH':
      return (scope) => handle.publish(channel(scope), value(scope)).then(asValue);
    case 'SUBSCRIBE':
      return (scope, ctx) => {
        // Joined before the wait, so a run torn down meanwhile leaves the channel at once.
        const { source, started: subscribed } = joinChannel(handle, channel(scope), step);
        ctx.onRelease(() => source.release());
        return subscribed.then(() => ({ stream: source }));
      };
    case 'XADD': {
      const id = textOr(spec.id, 'id', '*');
      const minId = spec.minId === undefined ? undefined : text(spec.minId, 'minid');
      const maxLen = spec.maxLen;
      return (scope) => {
        const trim = minId !== undefined ? { minId: minId(scope) } : maxLen !== undefined ? { maxLen } : undefined;
        return handle.xadd(key(scope), id(scope), entryFields(spec.fields!.evaluate(scope), step), trim).then(asValue);
      };
    }
    case 'XRANGE':
    case 'XREVRANGE': {
      const start = textOr(spec.start, 'start', '-');
      const end = textOr(spec.end, 'end', '+');
      const count = spec.count;
      const newestFirst = spec.op === 'XREVRANGE';
      return (scope) =>
        handle
          .xrange(key(scope), {
            start: start(scope),
            end: end(scope),
            count: count === undefined ? undefined : countOperand(count.evaluate(scope), step),
            newestFirst,
          })
          .then((entries) => ({ value: entries.map(entryValue) }));
    }
    case 'XREAD':
      return (scope, ctx) => {
        const { source, started: subscribed } = joinStream(handle, key(scope), step);
        ctx.onRelease(() => source.release());
        return subscribed.then(() => ({ stream: source }));
      };
  }
}

function fromText(text: string | null): { value: unknown } {
  return { value: text === null ? null : decodeValue(text) };
}

function asValue(value: unknown): { value: unknown } {
  return { value };
}

/** EXISTS and EXPIRE answer 1 or 0: a boolean reads better in a `condition`. */
function asTruth(n: number | bigint): { value: boolean } {
  return { value: n !== 0 && n !== 0n };
}
