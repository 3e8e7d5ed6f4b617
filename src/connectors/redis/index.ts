/**
 * The redis connector kind: `redis://` / `rediss://` servers on ioredis, and the embedded `memory:`
 * store, behind one handle with the same operations and answers (DECISIONS.md §1).
 */
import type { ConnectorDefinition } from '../types.js';
import { classifyRedisError } from './errors.js';
import { redisHandle, type RedisResource } from './handle.js';
import { MemoryStore } from './memory/store.js';
import { describeTarget, targetOf } from './target.js';
import type { RedisHandle } from './types.js';

export const redisConnector: ConnectorDefinition<RedisResource, RedisHandle> = {
  kind: 'redis',
  describe: (connection) => describeTarget(targetOf(connection)),
  handle: (connection, access, identity) => redisHandle(targetOf(connection), access, identity),
  async open(connection, context) {
    const target = targetOf(connection);
    if (connection.pool !== undefined) {
      context.logger?.warn({ connection: context.key }, 'a redis connection pipelines every command over one connection: pool is ignored');
    }
    // No I/O waited for here: the server connection is dialled now and awaited by the ping, which
    // set.ts retries while the server is unreachable.
    // ioredis is loaded by the first Redis server connection: `memory:` and services without Redis
    // never pay its memory and load time.
    const store =
      target.type === 'memory'
        ? new MemoryStore()
        : new (await import('./server/store.js')).ServerStore({
            url: target.url,
            key: context.key,
            label: context.label,
            connectTimeoutMs: context.acquireTimeoutMs,
            logger: context.logger,
          });
    return { store, key: context.key, label: context.label };
  },
  ping: (resource, timeoutMs) => resource.store.ping(timeoutMs),
  close: (resource) => resource.store.close(),
  classify: classifyRedisError,
};

export type {
  CommandOptions,
  IntegerReply,
  LossListener,
  MessageListener,
  RedisHandle,
  RedisStats,
  RedisSubscription,
  SetOptions,
  StreamEntry,
  StreamRange,
  StreamTail,
  StreamTrim,
  SubscribeOptions,
  TailListener,
} from './types.js';
export { scriptClient, type ScriptClient } from './script-client.js';
