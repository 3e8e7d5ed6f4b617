/**
 * The memory store's keys, with Redis' expiry: a key past its time-to-live is gone for every read
 * (lazy expiry, checked on access), and a timer sweeps expired keys that nobody reads, a bounded
 * batch at a time as Redis' active expiry does, so a cache of written-once keys does not grow
 * forever. The timer is unref'd: an idle store never keeps the process alive.
 */
import type { StreamLog } from './stream-log.js';

/** A key's value: a string, or a stream (./stream-log.ts). */
export type Value = string | StreamLog;

interface Entry {
  value: Value;
  /** performance.now() deadline; undefined: no time-to-live. */
  expiresAt: number | undefined;
}

/** How often the sweeper runs, and how many expiring keys it looks at each time. */
const SWEEP_INTERVAL_MS = 250;
const SWEEP_BATCH = 1000;

export class Keyspace {
  private readonly entries = new Map<string, Entry>();
  /** The keys that have a time-to-live: the only ones the sweeper needs to visit. */
  private readonly expiring = new Set<string>();
  /** Where the last sweep stopped; a Set iterator sees later insertions and survives deletions. */
  private cursor: Iterator<string> | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.timer = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  get(key: string): Value | undefined {
    return this.live(key)?.value;
  }

  has(key: string): boolean {
    return this.live(key) !== undefined;
  }

  /** Sets the value; `ttlMs` undefined clears any time-to-live (SET without PX). */
  set(key: string, value: Value, ttlMs?: number): void {
    const expiresAt = ttlMs === undefined ? undefined : this.now() + ttlMs;
    this.entries.set(key, { value, expiresAt });
    this.track(key, expiresAt);
  }

  /** Replaces the value and keeps the time-to-live (INCR). False when the key does not exist. */
  update(key: string, value: string): boolean {
    const entry = this.live(key);
    if (entry === undefined) return false;
    entry.value = value;
    return true;
  }

  delete(key: string): boolean {
    const entry = this.live(key);
    if (entry === undefined) return false;
    this.remove(key);
    return true;
  }

  /** Gives an existing key a time-to-live; a non-positive one deletes it, as PEXPIRE does. */
  expire(key: string, ttlMs: number): boolean {
    const entry = this.live(key);
    if (entry === undefined) return false;
    if (ttlMs <= 0) {
      this.remove(key);
      return true;
    }
    entry.expiresAt = this.now() + ttlMs;
    this.expiring.add(key);
    return true;
  }

  /** How many keys are stored, expired ones not yet swept included (for tests of the sweeper). */
  get size(): number {
    return this.entries.size;
  }

  stop(): void {
    clearInterval(this.timer);
    this.entries.clear();
    this.expiring.clear();
    this.cursor = undefined;
  }

  /** Removes up to SWEEP_BATCH expired keys, resuming where the last sweep stopped. */
  sweep(): void {
    if (this.expiring.size === 0) return;
    const now = this.now();
    this.cursor ??= this.expiring.values();
    for (let seen = 0; seen < SWEEP_BATCH; seen++) {
      const next = this.cursor.next();
      if (next.done) {
        this.cursor = undefined;
        return;
      }
      const entry = this.entries.get(next.value);
      if (entry === undefined || entry.expiresAt === undefined) this.expiring.delete(next.value);
      else if (entry.expiresAt <= now) this.remove(next.value);
    }
  }

  /** The entry, unless it has expired (then it is removed: lazy expiry). */
  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= this.now()) {
      this.remove(key);
      return undefined;
    }
    return entry;
  }

  private track(key: string, expiresAt: number | undefined): void {
    if (expiresAt === undefined) this.expiring.delete(key);
    else this.expiring.add(key);
  }

  private remove(key: string): void {
    this.entries.delete(key);
    this.expiring.delete(key);
  }
}
