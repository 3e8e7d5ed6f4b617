/**
 * `redis` / `kv` as a graph step: the `key`, `value` and `channel` expressions are evaluated per
 * request, the command runs on the connection's handle (a Redis server or the memory store, alike),
 * and its reply becomes the output `value` (SPEC.md §2.5, README "Redis"):
 *
 *   GET      the value (JSON decoded, ./values.ts), null on a miss
 *   SET      "OK"                        DEL      keys removed (0 or 1)
 *   EXISTS   true / false                INCR     the new count
 *   EXPIRE   true when the key exists    PUBLISH  subscriber connections reached
 *   SUBSCRIBE  output `stream` instead: the channel's messages, a live pulled source (./source.ts)
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
import { joinChannel } from './fanout.js';
import type { RedisStepSpec } from './spec.js';
import { decodeValue, encodeValue, textOperand } from './values.js';

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
    reads: env.readsOf([spec.key, spec.value, spec.channel]),
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
  const text = (expr: Expr | undefined, what: 'key' | 'channel') => (scope: EndpointScope) => textOperand(expr!.evaluate(scope), what, step);
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
        const { source, subscribed } = joinChannel(handle, channel(scope), step);
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
