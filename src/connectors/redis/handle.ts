/**
 * The redis handle step compilers bind to at boot. It holds no connection itself: each call reads
 * the open store (so a call before `openAll` or after `closeAll` fails clearly), races the command
 * against the caller's signal and time-out (ioredis takes no AbortSignal: an interrupted command is
 * abandoned, its reply ignored), and turns failures into ConnectorErrors naming the connection.
 */
import { activeTracer } from '../../tracing/index.js';
import { ConnectorError } from '../errors.js';
import { type Interrupt, watchInterrupt } from '../interrupt.js';
import type { HandleIdentity, ResourceAccess } from '../types.js';
import { toConnectorError } from './errors.js';
import { StreamTailLoop } from './stream-tail.js';
import type { RedisTarget } from './target.js';
import type { CommandOptions, RedisHandle, RedisStore, RedisSubscription } from './types.js';

/** What an open redis connection holds: its store, and who it is, for errors. */
export interface RedisResource {
  readonly store: RedisStore;
  readonly key: string;
  readonly label: string;
}

export function redisHandle(target: RedisTarget, access: ResourceAccess<RedisResource>, identity: HandleIdentity): RedisHandle {
  /**
   * One command on the open store, interruptible. Without a signal or a time-out (a step's case: the
   * graph does its own waiting) it is the store's promise with one `.catch`, nothing more per call.
   */
  function run<T>(what: string, options: CommandOptions | undefined, command: (store: RedisStore) => Promise<T>): Promise<T> {
    // Tracing on: the command in a client span of the step that sent it (docs/operations.md "Tracing").
    const tracer = activeTracer();
    const span = tracer?.client('redis', what, { 'db.operation.name': what, 'svc.connection': identity.key });
    if (span === undefined) return untraced(what, options, command);
    return untraced(what, options, command).then(
      (value) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        span.fail(error, error instanceof ConnectorError ? (error.category ?? 'error') : 'error');
        span.end();
        throw error;
      },
    );
  }

  function untraced<T>(what: string, options: CommandOptions | undefined, command: (store: RedisStore) => Promise<T>): Promise<T> {
    let resource: RedisResource;
    try {
      resource = access.get();
    } catch (error) {
      return Promise.reject(error);
    }
    const { store, key, label } = resource;
    const convert = (error: unknown): never => {
      throw toConnectorError(error, key, label);
    };
    if (options?.signal === undefined && options?.timeoutMs === undefined) return command(store).catch(convert);
    let interrupt: Interrupt | undefined;
    try {
      interrupt = watchInterrupt(options, key, label, what);
    } catch (error) {
      return Promise.reject(error);
    }
    const work = command(store);
    // The reply may come after the interrupt won: it is then nobody's.
    work.catch(() => {});
    return Promise.race([work, interrupt!.promise])
      .catch(convert)
      .finally(() => interrupt!.dispose());
  }

  return {
    key: identity.key,
    kind: 'redis',
    name: identity.name,
    url: identity.url,
    get state() {
      return access.state;
    },
    embedded: target.type === 'memory',
    get: (key, options) => run('GET', options, (s) => s.get(key)),
    set: (key, value, options) => run('SET', options, (s) => s.set(key, value, options?.ttlMs)),
    del: (key, options) => run('DEL', options, (s) => s.del(key)),
    exists: (key, options) => run('EXISTS', options, (s) => s.exists(key)),
    incr: (key, options) => run('INCR', options, (s) => s.incr(key)),
    expire: (key, ttlMs, options) => run('EXPIRE', options, (s) => s.expire(key, ttlMs)),
    publish: (channel, message, options) => run('PUBLISH', options, (s) => s.publish(channel, message)),
    xadd: (key, id, fields, trim, options) => run('XADD', options, (s) => s.xadd(key, id, fields, trim)),
    xrange: (key, range, options) => run(range.newestFirst ? 'XREVRANGE' : 'XRANGE', options, (s) => s.xrange(key, range)),
    tail(key, after, listener) {
      const { store, key: connection, label } = access.get();
      return new StreamTailLoop(store.streamReader(key), after, {
        onEntries: (entries) => listener.onEntries(entries),
        onFailure: (error) => listener.onFailure(toConnectorError(error, connection, label)),
      });
    },
    subscribeRefusal() {
      let resource: RedisResource;
      try {
        resource = access.get();
      } catch (error) {
        return toConnectorError(error, identity.key, identity.name);
      }
      const refusal = resource.store.subscribeRefusal();
      return refusal === undefined ? undefined : toConnectorError(refusal, resource.key, resource.label);
    },
    stats: () => access.get().store.stats(),
    runScript: (script, keys, args, options) =>
      run('EVALSHA', options, (s) => (s.runScript ? s.runScript(script, keys, args) : Promise.reject(new Error('the memory: store runs no Lua scripts')))),
    async subscribe(channel, listener, options): Promise<RedisSubscription> {
      const { store, key, label } = access.get();
      const interrupt = options === undefined ? undefined : watchInterrupt(options, key, label, 'SUBSCRIBE');
      const work = store.subscribe(channel, listener, options?.onLost);
      try {
        return interrupt === undefined ? await work : await Promise.race([work, interrupt.promise]);
      } catch (error) {
        // Interrupted while the SUBSCRIBE was under way: it may still succeed, and must then be left.
        if (interrupt?.reason !== undefined && error === interrupt.reason) {
          work.then(
            (subscription) => subscription.unsubscribe(),
            () => {},
          );
        }
        throw toConnectorError(error, key, label);
      } finally {
        interrupt?.dispose();
      }
    },
  };
}
