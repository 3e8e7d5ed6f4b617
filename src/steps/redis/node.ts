/**
 * `redis` / `kv` as a graph step: `key`, `value` and `channel` evaluated per request, the command run
 * on the connection's handle (Redis or the memory store, alike), its reply the output `value`
 * (SPEC.md §2.5; each command's reply in docs/redis.md "The `redis` step").
 *
 * The step does not read `ctx.signal`: Redis cannot take a sent command back, so on a timeout or a
 * cancel the graph just stops waiting, and an AbortController per request halved a cache hit's
 * throughput (bench/cache README "What it took"). SUBSCRIBE and XREAD output `stream` (a live source,
 * ../live-source.ts); SUBSCRIBE waits for its subscription, so Redis down is a 503 before any byte.
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
