/**
 * XREAD BLOCK on the memory store: a read with nothing after its id waits until an XADD to its key
 * wakes it (on a microtask after the XADD answered, as a server answers blocked clients after the
 * command), until `blockMs` passes (then it answers no entries, as XREAD answers nil), or until the
 * reader is closed (then it answers no entries too). A read that finds entries answers at once.
 */
import type { StreamEntry, StreamReader } from '../types.js';
import type { StreamLog } from './stream-log.js';
import { parseStreamId } from './stream-id.js';

/** The blocked reads of each key: woken, all of them, by an XADD to it. */
export class StreamWaiters {
  readonly #byKey = new Map<string, Set<() => void>>();

  add(key: string, wake: () => void): () => void {
    let set = this.#byKey.get(key);
    if (set === undefined) {
      set = new Set();
      this.#byKey.set(key, set);
    }
    set.add(wake);
    return () => {
      set.delete(wake);
      if (set.size === 0 && this.#byKey.get(key) === set) this.#byKey.delete(key);
    };
  }

  wake(key: string): void {
    const set = this.#byKey.get(key);
    if (set === undefined) return;
    queueMicrotask(() => {
      for (const wake of [...set]) wake();
    });
  }

  closeAll(): void {
    const all = [...this.#byKey.values()];
    this.#byKey.clear();
    for (const set of all) for (const wake of set) wake();
  }
}

export class MemoryStreamReader implements StreamReader {
  #closed = false;
  /** Settles the read under way, when one waits. */
  #settle: (() => void) | undefined;

  constructor(
    private readonly key: string,
    /** The stream at the key (WRONGTYPE thrown when it holds a string). */
    private readonly stream: () => StreamLog | undefined,
    private readonly waiters: StreamWaiters,
    private readonly onClose: () => void = () => {},
  ) {}

  read(after: string, count: number, blockMs: number): Promise<readonly StreamEntry[]> {
    try {
      const parsed = parseStreamId(after, 0n);
      const id = { ms: parsed.ms, seq: parsed.seq! };
      const ready = this.#closed ? [] : (this.stream()?.after(id, count) ?? []);
      if (ready.length > 0 || this.#closed) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        const done = (): void => {
          clearTimeout(timer);
          leave();
          this.#settle = undefined;
        };
        const timer = setTimeout(() => {
          done();
          resolve([]);
        }, blockMs);
        timer.unref();
        const leave = this.waiters.add(this.key, () => {
          if (this.#closed) {
            done();
            resolve([]);
            return;
          }
          try {
            const entries = this.stream()?.after(id, count) ?? [];
            if (entries.length === 0) return;
            done();
            resolve(entries);
          } catch (error) {
            done();
            reject(error);
          }
        });
        this.#settle = () => {
          done();
          resolve([]);
        };
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  get closed(): boolean {
    return this.#closed;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#settle?.();
    this.onClose();
  }
}
