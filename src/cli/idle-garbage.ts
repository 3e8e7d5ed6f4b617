/**
 * One full garbage collection a few seconds after the server starts listening, so that a server
 * left idle gives back what its boot grew.
 *
 * Why: a boot allocates far more than it keeps (parse trees, every diagnostic pass, Ajv's generated
 * source, the OpenAPI document's intermediate objects), enough to grow V8's young generation to its
 * maximum (2 x 8 MiB under bin/svc.js's `--max-semi-space-size=8`). V8 shrinks it only at a
 * collection that sees a low allocation rate over the last 5 seconds, and an idle server allocates
 * too little to ever cause one: examples/quickstart stays at about 97 MB resident for as long as
 * nobody calls it, 83 MB after this collection (bench/users README, "Cold start and footprint"). A
 * collection at the end of the boot itself frees nothing of it (the rate is the boot's), hence the
 * delay. A server already busy by then keeps its young generation (the rate is high) and pays one
 * collection of a small heap, once; the timer never keeps the process alive.
 * On Node.js 22 (V8 12) the young generation is back to 1 MB by the end of the boot anyway, and
 * this collection finds little.
 *
 * When the loop really was idle until then and the heap is no larger than a boot leaves
 * (FLUSH_HEAP_LIMIT_BYTES), the collection also drops the compiled code of every function not
 * running (V8's code flushing, made to take everything: FLUSH_CODE_FLAGS), and a compacting one
 * after it gives back the pages that freed. Most of that code is the boot's (the HCL
 * parser, the checks, the OpenAPI compiler), which V8 would drop by itself only after collections
 * an idle server never has: about 3 MiB resident on examples/quickstart (bench/users README "Boot
 * code dropped"). What a request then runs again is compiled again, lazily, as at the first
 * request; a server already busy keeps its code.
 *
 * `gc` is borrowed from a realm made under `--expose-gc` (src/heap). Where that fails nothing is
 * collected: it saves memory, nothing depends on it.
 */
import { performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { borrowGc } from '../heap/index.js';
// V8 internals (flags set at run time): what is relied on and where it was verified.
import { COMPACT_FLAGS, FLUSH_CODE_FLAGS } from './internals.js';

/** V8's window for the allocation rate (kThroughputTimeFrameMs, 5 s), and a margin. */
const IDLE_COLLECTION_DELAY_MS = 6_000;

/**
 * The share of the delay the event loop may have been busy for the server to count as idle: the
 * first request after a boot compiles its path (0.7 % of the window on examples/quickstart), and a
 * few requests a second stay below it too; a server under load is far above it.
 */
const IDLE_UTILIZATION = 0.05;

/**
 * The heap in use above which an idle server gets the plain collection only, without the code
 * flushing and compacting ones: what a boot leaves is well below it (examples/quickstart 17 MB
 * before the collection, examples/shop 28); a server holding more holds its own state (thousands of
 * open streams, caches), which those two collections go through for little: with 10,000 SSE clients
 * held (106 MB) the three collections stopped the loop for 375 ms, the plain one alone for 80 to 89
 * (bench/sse README "Where the p99 comes from").
 */
const FLUSH_HEAP_LIMIT_BYTES = 48 * 1024 * 1024;

/** The young generation's size at its smallest (one semi-space of 1 MiB, V8 11 to 14). */
const YOUNG_AT_REST_BYTES = 1024 * 1024;

/**
 * `gc`'s options on V8 12 and later (Node.js 22): a collection that gives back all it can (V8's
 * "last resort": the young generation shrunk whatever the allocation rate). V8 11 (Node.js 20) makes
 * any options object a young-generation collection: there `gc()` alone, a full collection, which
 * shrinks the young generation only when the rate it last sampled was low.
 */
const GIVE_BACK = Number(process.versions.v8.split('.')[0]) >= 12 ? ({ type: 'major', execution: 'sync', flavor: 'last-resort' } as const) : undefined;

export interface IdleCollectionOptions {
  readonly delayMs?: number;
  readonly flushHeapLimitBytes?: number;
  /** What runs the collection (tests see its options). */
  readonly collect?: (options: { flushCode: boolean }) => void;
}

export function collectGarbageWhenIdle(options: IdleCollectionOptions = {}): void {
  const { delayMs = IDLE_COLLECTION_DELAY_MS, flushHeapLimitBytes = FLUSH_HEAP_LIMIT_BYTES, collect: run = collectGarbage } = options;
  let since = performance.eventLoopUtilization();
  const collect = (): void => {
    const idle = performance.eventLoopUtilization(since).utilization < IDLE_UTILIZATION;
    run({ flushCode: idle && getHeapStatistics().used_heap_size <= flushHeapLimitBytes });
    since = performance.eventLoopUtilization();
  };
  setTimeout(() => {
    collect();
    // V8 11 samples the rate at collections: the first one may still see the boot's. A second,
    // one window later, sees only the idle time between the two (when the server stayed idle).
    if (youngGenerationBytes() > YOUNG_AT_REST_BYTES) setTimeout(collect, delayMs).unref();
  }, delayMs).unref();
}

function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * One full collection now (exported for its test); with `flushCode`, the compiled code of every
 * function not on the stack goes too.
 */
export function collectGarbage({ flushCode = false } = {}): void {
  const gc = borrowGc();
  if (gc === undefined) return;
  const collect = (): void => (GIVE_BACK === undefined ? gc() : gc(GIVE_BACK));
  collect();
  if (!flushCode) return;
  // V8 reads the flags when a collection starts marking: the collection above finished any that had
  // started already, so the next one marks from the start under them.
  underFlags(FLUSH_CODE_FLAGS, collect);
  // The code dropped is garbage only from here on, spread over pages still in use: a second,
  // compacting collection gives those pages back.
  underFlags(COMPACT_FLAGS, collect);
}

/** `run` with V8's boolean `flags` set, unset after. */
function underFlags(flags: readonly string[], run: () => void): void {
  try {
    for (const flag of flags) setFlagsFromString(flag);
    run();
  } finally {
    for (const flag of flags) setFlagsFromString(`--no-${flag.slice(2)}`);
  }
}
