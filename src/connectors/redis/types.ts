/**
 * What the redis connector offers step compilers, in driver-free types: src/steps never sees
 * `ioredis`. Two stores stand behind one handle (DECISIONS.md §1): a Redis server (`redis://`,
 * `rediss://`) and the embedded in-process store (`memory:`), with the same operations and the same
 * answers, held together by one behaviour test suite (test/redis/behaviour.test.ts).
 */
import type { ConnectorError } from '../errors.js';
import type { HandleBase } from '../types.js';

/**
 * How long a command may take and who may stop it. A command already sent cannot be taken back:
 * an interrupted one is abandoned (its answer ignored), not undone.
 */
export interface CommandOptions {
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
}

/**
 * An integer reply: a number while it is a safe integer, else a BigInt (INCR past 2^53), which the
 * HTTP layer writes as the exact JSON number it is (as the postgres connector does for int8).
 */
export type IntegerReply = number | bigint;

/** A live subscription to one channel; `unsubscribe` is idempotent. */
export interface RedisSubscription {
  unsubscribe(): void;
}

/** Hears one channel's messages, as the text that was published. */
export type MessageListener = (message: string) => void;

/**
 * Told, once, that a subscription was lost: the subscriber connection to Redis dropped, so messages
 * published until it is back are missed (pub/sub keeps nothing). Its listener may still hear the
 * channel once ioredis resubscribes, but the gap cannot be known to be empty: the listener should
 * unsubscribe and its consumers start over. The `memory:` store never loses a subscription.
 */
export type LossListener = (reason: string) => void;

/** One entry of a stream: its id (`<ms>-<seq>`) and its field/value pairs, flat, in their order. */
export interface StreamEntry {
  readonly id: string;
  readonly fields: readonly string[];
}

/**
 * XADD's retention, approximate (`~`): keep at least the newest `maxLen` entries, or at least the
 * entries from `minId` on. Redis may keep a few more (it drops whole nodes); `memory:` keeps exactly.
 */
export interface StreamTrim {
  readonly maxLen?: number | undefined;
  readonly minId?: string | undefined;
}

/** XRANGE / XREVRANGE: bounds as Redis reads them (`-`, `+`, `<ms>[-<seq>]`, `(<id>` exclusive). */
export interface StreamRange {
  readonly start: string;
  readonly end: string;
  readonly count?: number | undefined;
  /** XREVRANGE: newest first (the bounds stay low, high). */
  readonly newestFirst?: boolean | undefined;
}

/**
 * A blocking reader of one stream key (XREAD BLOCK): `read(after)` resolves with the entries after
 * `after` (at most `count`), waiting up to `blockMs` for one, and with none when that passes.
 * `close()` ends it: a read under way then settles (rejected on a server, empty in memory).
 */
export interface StreamReader {
  read(after: string, count: number, blockMs: number): Promise<readonly StreamEntry[]>;
  /** Closed by its tail, or by the store's close: no read is worth making again. */
  readonly closed: boolean;
  close(): void;
}

/** Hears a followed stream (RedisHandle.tail). */
export interface TailListener {
  /** New entries, in id order, never one twice. */
  onEntries(entries: readonly StreamEntry[]): void;
  /** The key can no longer be read (it now holds another type): the tail has stopped. */
  onFailure(error: Error): void;
}

/** A followed stream; `close` is idempotent. */
export interface StreamTail {
  /** The id of the last entry handed over (or the one it started after). */
  readonly lastId: string;
  close(): void;
}

export interface SubscribeOptions extends CommandOptions {
  readonly onLost?: LossListener | undefined;
}

/**
 * The operations both stores implement, with Redis' own semantics (the memory store copies them,
 * error texts included). Values are text: encoding JSON is the step's business.
 */
export interface RedisStore {
  get(key: string): Promise<string | null>;
  /** SET, with PX when `ttlMs` is given (a SET without it clears any time-to-live, as in Redis). */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Keys removed: 0 or 1. */
  del(key: string): Promise<IntegerReply>;
  /** 1 when the key exists. */
  exists(key: string): Promise<IntegerReply>;
  /** The new value; fails with `ERR value is not an integer or out of range` on anything else. */
  incr(key: string): Promise<IntegerReply>;
  /** PEXPIRE: 1 when the key exists (and now expires), 0 when it does not. */
  expire(key: string, ttlMs: number): Promise<IntegerReply>;
  /** The number of subscriber connections that received it (see docs/redis.md: one per svc process). */
  publish(channel: string, message: string): Promise<IntegerReply>;
  /** XADD key [MINID|MAXLEN ~ n] id field value...: the new entry's id. */
  xadd(key: string, id: string, fields: readonly string[], trim?: StreamTrim): Promise<string>;
  /** XRANGE / XREVRANGE. */
  xrange(key: string, range: StreamRange): Promise<StreamEntry[]>;
  /** A reader of `key` of its own (a server: a connection of its own, since XREAD BLOCK holds one). */
  streamReader(key: string): StreamReader;
  /** Resolves once the subscription is live, so a message published after it is heard; `onLost`: see LossListener. */
  subscribe(channel: string, listener: MessageListener, onLost?: LossListener): Promise<RedisSubscription>;
  /** Why a subscription would be refused at once now (Redis known down), else undefined. */
  subscribeRefusal(): Error | undefined;
  /** One round trip, bounded by `timeoutMs`. */
  ping(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
  /** What the connection is doing now, for metrics; no I/O. */
  stats(): RedisStats;
  /** EVALSHA of a Lua script (EVAL the first time); Redis servers only: `memory:` runs no Lua. */
  runScript?(script: RedisScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown>;
}

/** A Lua script, named so that it is loaded once per connection (ioredis `defineCommand`). */
export interface RedisScript {
  readonly name: string;
  readonly lua: string;
}

/**
 * One connection for commands, no pool (ioredis pipelines concurrent commands): what is worth
 * watching is whether it is up and how many commands wait for it to come back.
 */
export interface RedisStats {
  /** Commands are sent at once (ioredis `ready`; always true for `memory:`). */
  readonly up: boolean;
  /** Commands queued while the connection is opening or reconnecting. */
  readonly queued: number;
}

export interface SetOptions extends CommandOptions {
  readonly ttlMs?: number | undefined;
}

export interface RedisHandle extends HandleBase {
  readonly kind: 'redis';
  /** True for `memory:`: the embedded in-process store. */
  readonly embedded: boolean;
  /** Rejects with a ConnectorError (see ../errors.ts), as every call does. */
  get(key: string, options?: CommandOptions): Promise<string | null>;
  set(key: string, value: string, options?: SetOptions): Promise<void>;
  del(key: string, options?: CommandOptions): Promise<IntegerReply>;
  exists(key: string, options?: CommandOptions): Promise<IntegerReply>;
  incr(key: string, options?: CommandOptions): Promise<IntegerReply>;
  expire(key: string, ttlMs: number, options?: CommandOptions): Promise<IntegerReply>;
  publish(channel: string, message: string, options?: CommandOptions): Promise<IntegerReply>;
  xadd(key: string, id: string, fields: readonly string[], trim?: StreamTrim, options?: CommandOptions): Promise<string>;
  xrange(key: string, range: StreamRange, options?: CommandOptions): Promise<StreamEntry[]>;
  /**
   * Follows a stream key from the entry after `after` (StreamTail): entries are handed to `onEntries`
   * in id order, each once, across reconnections. Throws at once when the connection is not open.
   */
  tail(key: string, after: string, listener: TailListener): StreamTail;
  /**
   * Listens to a channel over the connection's one shared subscriber connection. Resolves once the
   * channel is subscribed; the channel is unsubscribed when its last listener leaves. `options`
   * bound the wait for the subscription, not its life; `options.onLost` hears of its loss (LossListener).
   */
  subscribe(channel: string, listener: MessageListener, options?: SubscribeOptions): Promise<RedisSubscription>;
  /**
   * Why `subscribe` would fail at once now (the connection is not open, or Redis is known to be
   * down: dependency-unavailable), else undefined. No I/O. For a listener that joins a channel
   * someone in the process already listens to, and so sends no SUBSCRIBE that could fail.
   */
  subscribeRefusal(): ConnectorError | undefined;
  /** The open connection's state (see RedisStats); throws a ConnectorError when it is not open. */
  stats(): RedisStats;
  /** Runs a Lua script (see RedisStore.runScript); on `memory:` it rejects: use `embedded` to choose. */
  runScript(script: RedisScript, keys: readonly string[], args: readonly (string | number)[], options?: CommandOptions): Promise<unknown>;
}
