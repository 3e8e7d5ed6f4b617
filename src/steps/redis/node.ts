/**
 * `redis` / `kv` as a graph step: the `key`, `value` and `channel` expressions are evaluated per
 * request, the command runs on the connection's handle (a Redis server or the memory store, alike),
 * and its reply becomes the output `value` (SPEC.md §2.5, README "Redis"):
 *
 *   GET      the value (JSON decoded, ./values.ts), null on a miss
 *   SET      "OK"                        DEL      keys removed (0 or 1)
 *   EXISTS   true / false                INCR     the new count
 *   EXPIRE   true when the key exists    PUBLISH  subscriber connections reached
 *   SUBSCRIBE  output `stream` instead: the channel's messages (./source.ts)
 *
 * Time-outs and cancellation: the step's `timeout` is the node's, so the graph stops waiting when it
 * passes (a 504), as it does when the request times out or the client goes away; the command is
 * then abandoned, its reply ignored. That is all a signal could do here, since Redis cannot take a
 * command back once it is sent, so the step does not read `ctx.signal`: creating and aborting that
 * AbortController per request halved the throughput of a cache hit (bench/cache/README.md).
 */
import type { StepNodeDef } from '../../../graph/index.js';
import type { RedisHandle } from '../../connectors/index.js';
import type { Expr } from '../../model/index.js';
import type { EndpointScope } from '../contract.js';
import type { NodeCompiler } from '../definition.js';
import { channelMessages } from './source.js';
import type { RedisStepSpec } from './spec.js';
import { decodeValue, encodeValue, textOperand } from './values.js';

type Command = (scope: EndpointScope) => unknown;

export const compileRedis: NodeCompiler<RedisStepSpec> = (spec, env) => {
  if (spec.op === 'SUBSCRIBE' && !env.forDrawing) {
    env.error(
      spec,
      'SUBSCRIBE needs a stream step, which is not supported yet',
      `The output \`stream\` of a SUBSCRIBE is read by a \`stream "sse"\` step, and this version of svc cannot run stream steps yet; the endpoint is refused at boot rather than served without its stream.`,
    );
    return undefined;
  }
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
      // Nothing is subscribed until the stream step subscribes to the Observable.
      return (scope) => ({ stream: channelMessages(handle, channel(scope)) });
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
