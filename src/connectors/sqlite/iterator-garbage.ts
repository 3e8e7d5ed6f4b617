/**
 * Node.js 22's node:sqlite gives each `iterate()` step's result (`{ done, value }`, made with
 * `v8::Object::New` and a null prototype) a V8 Map of its own: 72 bytes in the old generation per
 * row, which V8 collects only when the old generation next reaches its limit, and that limit grows
 * with the heap. A 1,000,000-row export peaked about 30 to 40 MiB higher than on Node.js 24, whose
 * iterator makes its results without (132 against 100 MiB: bench/sqlite README "A Map per row"). Rows read as objects
 * have the same fault on every line; svc reads them as arrays (values.ts).
 *
 * A cursor on such a line asks V8 to start a major collection each time the maps its steps made
 * reach a quarter of the heap in use, never more often than every 65,536 rows (4.7 MB of maps). The
 * collection is V8's incremental one (`execution: 'async'`): marked in steps and on V8's helper
 * threads, as when V8 starts it itself, only sooner. `gc` is borrowed as the idle collection borrows
 * it (src/heap); where it cannot be, nothing is asked and the export runs as before.
 */
import { getHeapStatistics } from 'node:v8';
import { borrowGc, type Gc } from '../../heap/index.js';

/** Node.js 22 (verified through 22.23); 24 and 26 share one Map among the results. */
export const ITERATOR_MAP_PER_STEP = Number(process.versions.node.split('.')[0]) < 24;

/** A Map's size in V8's heap (pointer compression, V8 12). */
const MAP_BYTES = 72;

/** The fewest steps between two collections. */
const MIN_STEPS = 65_536;

export interface StepGarbageOptions {
  /** Whether this line's iterator makes a Map per step (tests say). */
  readonly mapPerStep?: boolean;
  /** Starts a collection (tests count the calls). */
  readonly collect?: () => void;
  /** The heap's bytes in use. */
  readonly heapUsed?: () => number;
}

/** Counts one cursor's steps and has their Maps collected; undefined on a line whose iterator makes none. */
export function stepGarbage(options: StepGarbageOptions = {}): StepGarbage | undefined {
  if (!(options.mapPerStep ?? ITERATOR_MAP_PER_STEP)) return undefined;
  return new StepGarbage(options.collect ?? startMajorCollection(), options.heapUsed ?? (() => getHeapStatistics().used_heap_size));
}

export class StepGarbage {
  #steps = 0;
  #threshold: number;

  constructor(
    private readonly collect: () => void,
    private readonly heapUsed: () => number,
  ) {
    this.#threshold = this.threshold();
  }

  /** `count` more steps of the iterator. */
  stepped(count: number): void {
    this.#steps += count;
    if (this.#steps < this.#threshold) return;
    this.#steps = 0;
    this.collect();
    this.#threshold = this.threshold();
  }

  private threshold(): number {
    return Math.max(MIN_STEPS, Math.floor(this.heapUsed() / 4 / MAP_BYTES));
  }
}

/** A starter of V8's incremental major collection, borrowing `gc` at its first call. */
function startMajorCollection(): () => void {
  let gc: Gc | undefined | null = null;
  return () => {
    if (gc === null) gc = borrowGc();
    gc?.({ type: 'major', execution: 'async' });
  };
}
