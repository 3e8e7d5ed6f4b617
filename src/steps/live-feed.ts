/**
 * One upstream per feed per connection (a SUBSCRIBE channel, an XREAD key, a LISTEN channel), shared
 * by every consumer in the process: each message is decoded once and handed to each consumer's
 * buffer (./live-source.ts). Started with the first consumer, stopped with the last. One that cannot
 * start is not kept (the next consumer retries); one lost (what was published meanwhile is missed)
 * ends every consumer and is forgotten, so a reconnecting client starts a new one.
 */
import { LiveChannelSource } from './live-source.js';

/** A started upstream. */
export interface FeedUpstream {
  /** Stops it: the last consumer left. */
  stop(): void;
}

/** What a feed's upstream hands on: each value decoded once, with the byte size it counts for. */
export interface FeedSink {
  deliver(value: unknown, bytes: number): void;
  /** The upstream is gone; nothing more comes. */
  lost(reason: string): void;
}

/** Starts an upstream feeding `sink`; rejects (a ConnectorError) when it cannot be started. */
export type StartFeed = (sink: FeedSink) => Promise<FeedUpstream>;

/** A consumer that has joined a feed, and the start of the feed's upstream it must wait for. */
export interface JoinedFeed {
  readonly source: LiveChannelSource;
  /** Resolves once the upstream runs; rejects when it cannot be started. */
  readonly started: Promise<void>;
}

/** The feeds of each connection handle, by name (a handle lives as long as its connector set). */
export class FeedRegistry<H extends object> {
  readonly #feeds = new WeakMap<H, Map<string, SharedFeed>>();

  /** The feed `name` of `handle`, if one runs. */
  get(handle: H, name: string): SharedFeed | undefined {
    return this.#feeds.get(handle)?.get(name);
  }

  /** Joins the feed `name` of `handle`, started by `start` when it does not run yet. */
  join(handle: H, name: string, start: StartFeed, label: string, limit?: number): JoinedFeed {
    let feeds = this.#feeds.get(handle);
    if (feeds === undefined) {
      feeds = new Map();
      this.#feeds.set(handle, feeds);
    }
    let feed = feeds.get(name);
    if (feed === undefined) {
      const registered = feeds;
      feed = new SharedFeed(start, () => {
        if (registered.get(name) === feed) registered.delete(name);
      });
      feeds.set(name, feed);
    }
    return { source: feed.join(label, limit), started: feed.started };
  }
}

class SharedFeed {
  readonly started: Promise<void>;
  readonly #consumers = new Set<LiveChannelSource>();
  readonly #unregister: () => void;
  #upstream: FeedUpstream | undefined;
  #left = false;

  constructor(start: StartFeed, unregister: () => void) {
    this.#unregister = unregister;
    this.started = start({ deliver: (value, bytes) => this.#deliver(value, bytes), lost: (reason) => this.#lost(reason) }).then(
      (upstream) => {
        // Every consumer left while it was starting: stop it at once.
        if (this.#left) upstream.stop();
        else this.#upstream = upstream;
      },
      (error: unknown) => {
        this.#forget();
        throw error;
      },
    );
    // Each consumer's step awaits it; one torn down meanwhile does not, and nobody else must.
    this.started.catch(() => {});
  }

  join(label: string, limit: number | undefined): LiveChannelSource {
    const source = new LiveChannelSource(label, (s) => this.#leave(s), limit);
    this.#consumers.add(source);
    return source;
  }

  #deliver(value: unknown, bytes: number): void {
    // A consumer that overflows leaves during the loop: deleting from a Set while iterating is safe.
    for (const consumer of this.#consumers) consumer.deliver(value, bytes);
  }

  /** Every consumer is told (each one then leaves, the last stopping what is left of the upstream). */
  #lost(reason: string): void {
    this.#forget();
    for (const consumer of this.#consumers) consumer.lose(reason);
  }

  #leave(source: LiveChannelSource): void {
    if (!this.#consumers.delete(source) || this.#consumers.size > 0) return;
    this.#forget();
    this.#upstream?.stop();
  }

  /** No longer the feed: a consumer arriving later starts a new upstream. */
  #forget(): void {
    this.#left = true;
    this.#unregister();
  }
}
