/**
 * The RedisStore of a `redis://` / `rediss://` connection: one ioredis connection for commands
 * (pipelined by ioredis: concurrent requests share it, no pool needed) and a shared subscriber
 * connection opened on the first subscription. Integer replies arrive as text and leave as exact
 * numbers (../integer.ts).
 */
import { TurnEndWrites } from '../../../io/index.js';
import { watchInterrupt } from '../../interrupt.js';
import type { ConnectorLogger } from '../../types.js';
import { integerReply } from '../integer.js';
import type {
  IntegerReply,
  LossListener,
  MessageListener,
  RedisScript,
  RedisStats,
  RedisStore,
  RedisSubscription,
  StreamEntry,
  StreamRange,
  StreamReader,
  StreamTrim,
} from '../types.js';
import { ServerConnection } from './connection.js';
import { ServerStreamReader, streamEntries } from './stream-reader.js';
import { SharedSubscriber } from './subscriber.js';

export interface ServerStoreOptions {
  readonly url: string;
  readonly key: string;
  readonly label: string;
  readonly connectTimeoutMs: number;
  readonly logger: ConnectorLogger | undefined;
}

/** ioredis types integer replies as numbers; with `stringNumbers` they are text. */
type Reply = Promise<string | number>;

export class ServerStore implements RedisStore {
  private readonly commands: ServerConnection;
  private readonly subscriber: SharedSubscriber;
  /** Open stream readers, each on a connection of its own: closed with the store. */
  private readonly readers = new Set<StreamReader>();

  /** The store's connections' write queue: the commands of one turn leave at its end (src/io). */
  private readonly writes = new TurnEndWrites();

  constructor(private readonly options: ServerStoreOptions) {
    const writes = this.writes;
    this.commands = new ServerConnection({ ...options, name: 'svc', writes });
    this.subscriber = new SharedSubscriber(() => new ServerConnection({ ...options, name: 'svc-subscriber', writes }), options.logger, options.key);
  }

  get(key: string): Promise<string | null> {
    return this.commands.send((c) => c.get(key));
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    await this.commands.send((c) => (ttlMs === undefined ? c.set(key, value) : c.set(key, value, 'PX', ttlMs)));
  }

  del(key: string): Promise<IntegerReply> {
    return integer(this.commands.send((c) => c.del(key)));
  }

  exists(key: string): Promise<IntegerReply> {
    return integer(this.commands.send((c) => c.exists(key)));
  }

  incr(key: string): Promise<IntegerReply> {
    return integer(this.commands.send((c) => c.incr(key)));
  }

  expire(key: string, ttlMs: number): Promise<IntegerReply> {
    return integer(this.commands.send((c) => c.pexpire(key, ttlMs)));
  }

  publish(channel: string, message: string): Promise<IntegerReply> {
    return integer(this.commands.send((c) => c.publish(channel, message)));
  }

  xadd(key: string, id: string, fields: readonly string[], trim?: StreamTrim): Promise<string> {
    const retention = trim?.minId !== undefined ? ['MINID', '~', trim.minId] : trim?.maxLen !== undefined ? ['MAXLEN', '~', String(trim.maxLen)] : [];
    return this.commands.send((c) => c.xadd(key, ...retention, id, ...fields) as Promise<string>);
  }

  async xrange(key: string, range: StreamRange): Promise<StreamEntry[]> {
    const count = range.count === undefined ? [] : ['COUNT', String(range.count)];
    // XREVRANGE takes its bounds high first.
    const args = range.newestFirst ? [key, range.end, range.start, ...count] : [key, range.start, range.end, ...count];
    const reply = (await this.commands.send((c) => c.call(range.newestFirst ? 'XREVRANGE' : 'XRANGE', ...args))) as [string, string[]][];
    return streamEntries(reply);
  }

  streamReader(key: string): StreamReader {
    const reader = new ServerStreamReader(key, new ServerConnection({ ...this.options, name: 'svc-stream-reader', writes: this.writes }), () =>
      this.readers.delete(reader),
    );
    this.readers.add(reader);
    return reader;
  }

  subscribe(channel: string, listener: MessageListener, onLost?: LossListener): Promise<RedisSubscription> {
    // A server that is known to be down refuses at once, before a subscriber connection is tried.
    const refusal = this.commands.refusal();
    if (refusal !== undefined) return Promise.reject(refusal);
    return this.subscriber.subscribe(channel, listener, onLost);
  }

  subscribeRefusal(): Error | undefined {
    return this.commands.refusal() ?? this.subscriber.refusal();
  }

  /** Waits for the connection (the boot ping: a refused or failed connection rejects), then PING. */
  async ping(timeoutMs: number): Promise<void> {
    const started = performance.now();
    await this.commands.ready(timeoutMs);
    const left = Math.max(1, timeoutMs - (performance.now() - started));
    const interrupt = watchInterrupt({ timeoutMs: left }, this.options.key, this.options.label, 'PING');
    try {
      await Promise.race([this.commands.send((c) => c.ping()), interrupt!.promise]);
    } finally {
      interrupt?.dispose();
    }
  }

  stats(): RedisStats {
    return this.commands.stats();
  }

  runScript(script: RedisScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    return this.commands.send((c) => {
      // Defined once per connection: ioredis then sends EVALSHA, and EVAL when the server lacks it.
      const scripted = c as unknown as Record<string, ((...a: (string | number)[]) => Promise<unknown>) | undefined>;
      if (typeof scripted[script.name] !== 'function') c.defineCommand(script.name, { numberOfKeys: keys.length, lua: script.lua });
      return scripted[script.name]!.call(c, ...keys, ...args);
    });
  }

  async close(): Promise<void> {
    for (const reader of [...this.readers]) reader.close();
    await Promise.all([this.subscriber.close(), this.commands.close()]);
  }
}

function integer(reply: Reply): Promise<IntegerReply> {
  return reply.then(integerReply);
}
