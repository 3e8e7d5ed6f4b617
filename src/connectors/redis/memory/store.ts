/**
 * `url = "memory:"`: the embedded in-process store (DECISIONS.md §1), for development and tests
 * without a Redis server. Same operations and answers as Redis, error texts included:
 * test/redis/behaviour.test.ts runs one suite against both. What it is not: shared between
 * processes, persistent, or bounded in memory (no eviction).
 *
 * Messages are delivered on a microtask after PUBLISH answers, as a server delivers them after its
 * reply: a listener never runs inside the publisher's call.
 */
import { ChannelRegistry } from '../channels.js';
import { StoreReplyError } from '../errors.js';
import { INT64_MAX, integerReply, parseRedisInteger } from '../integer.js';
import type { IntegerReply, MessageListener, RedisStats, RedisStore, RedisSubscription, StreamEntry, StreamRange, StreamReader, StreamTrim } from '../types.js';
import { Keyspace } from './keyspace.js';
import { StreamLog } from './stream-log.js';
import { MemoryStreamReader, StreamWaiters } from './stream-reader.js';
import { parseRangeBound } from './stream-id.js';

export class MemoryStore implements RedisStore {
  private readonly keys = new Keyspace();
  private readonly channels = new ChannelRegistry();
  /** Blocked stream reads, woken by an XADD to their key. */
  private readonly waiters = new StreamWaiters();
  /** Open stream readers: closed with the store, so that their tails stop. */
  private readonly readers = new Set<StreamReader>();

  async get(key: string): Promise<string | null> {
    const value = this.keys.get(key);
    if (value instanceof StreamLog) throw wrongType();
    return value ?? null;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    if (ttlMs !== undefined && (!Number.isInteger(ttlMs) || ttlMs <= 0)) throw new StoreReplyError("ERR invalid expire time in 'set' command");
    this.keys.set(key, value, ttlMs);
  }

  async del(key: string): Promise<IntegerReply> {
    return this.keys.delete(key) ? 1 : 0;
  }

  async exists(key: string): Promise<IntegerReply> {
    return this.keys.has(key) ? 1 : 0;
  }

  async incr(key: string): Promise<IntegerReply> {
    const current = this.keys.get(key);
    if (current instanceof StreamLog) throw wrongType();
    if (current === undefined) {
      this.keys.set(key, '1');
      return 1;
    }
    const n = parseRedisInteger(current);
    if (n === undefined) throw new StoreReplyError('ERR value is not an integer or out of range');
    if (n === INT64_MAX) throw new StoreReplyError('ERR increment or decrement would overflow');
    const next = (n + 1n).toString();
    this.keys.update(key, next);
    return integerReply(next);
  }

  async expire(key: string, ttlMs: number): Promise<IntegerReply> {
    return this.keys.expire(key, ttlMs) ? 1 : 0;
  }

  async xadd(key: string, id: string, fields: readonly string[], trim?: StreamTrim): Promise<string> {
    if (fields.length === 0 || fields.length % 2 !== 0) throw new StoreReplyError("ERR wrong number of arguments for 'xadd' command");
    const current = this.keys.get(key);
    if (current !== undefined && !(current instanceof StreamLog)) throw wrongType();
    const log = current ?? new StreamLog();
    // A stream is created by its first entry only: a refused id leaves no empty key behind.
    const added = log.add(id, [...fields], trim);
    if (current === undefined) this.keys.set(key, log);
    // Woken after the reply, as a server wakes blocked readers after the command.
    this.waiters.wake(key);
    return added;
  }

  async xrange(key: string, range: StreamRange): Promise<StreamEntry[]> {
    const start = parseRangeBound(range.start, 'start');
    const end = parseRangeBound(range.end, 'end');
    const log = this.streamAt(key);
    return log === undefined ? [] : log.range(start, end, range.count, range.newestFirst === true);
  }

  streamReader(key: string): StreamReader {
    const reader = new MemoryStreamReader(
      key,
      () => this.streamAt(key),
      this.waiters,
      () => this.readers.delete(reader),
    );
    this.readers.add(reader);
    return reader;
  }

  /** The stream at `key`, undefined when there is none, WRONGTYPE when the key holds a string. */
  private streamAt(key: string): StreamLog | undefined {
    const value = this.keys.get(key);
    if (value !== undefined && !(value instanceof StreamLog)) throw wrongType();
    return value;
  }

  /**
   * Redis counts the subscriber connections that received the message. svc listens through one
   * subscriber connection per Redis connection, so a server answers 1 per svc process listening; an
   * in-process store has exactly that one process.
   */
  async publish(channel: string, message: string): Promise<IntegerReply> {
    if (!this.channels.has(channel)) return 0;
    queueMicrotask(() => this.channels.dispatch(channel, message));
    return 1;
  }

  /** In process, a subscription cannot be lost: no `onLost` is ever called (RedisStore.subscribe). */
  async subscribe(channel: string, listener: MessageListener): Promise<RedisSubscription> {
    // A listener object of its own: the same function may listen twice and leave twice.
    const own: MessageListener = (message) => listener(message);
    this.channels.add(channel, own);
    let active = true;
    return {
      unsubscribe: () => {
        if (!active) return;
        active = false;
        this.channels.remove(channel, own);
      },
    };
  }

  /** In process: never down (a closed store is refused by the handle, which knows the set's state). */
  subscribeRefusal(): undefined {
    return undefined;
  }

  async ping(): Promise<void> {}

  /** In-process: always up, never a queue. */
  stats(): RedisStats {
    return { up: true, queued: 0 };
  }

  async close(): Promise<void> {
    for (const reader of [...this.readers]) reader.close();
    this.waiters.closeAll();
    this.keys.stop();
    this.channels.clear();
  }
}

function wrongType(): StoreReplyError {
  return new StoreReplyError('WRONGTYPE Operation against a key holding the wrong kind of value');
}
