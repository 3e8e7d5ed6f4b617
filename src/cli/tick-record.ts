/**
 * Keeps one of Node's `process.nextTick` records alive for the life of the process, so that every
 * later `nextTick` stays on V8's fast path. Found in `perf` profiles of bench/health (2026-11-25):
 * about 3 us of CPU per request, 8 % of that endpoint's cost.
 *
 * `nextTick` builds its record with an object literal whose first keys are computed (symbols). V8
 * remembers, per key, the hidden classes (maps) the record had before the key was added. After
 * `svc serve`'s boot, the literal's later keys had seen too many maps and were megamorphic for good
 * (in a bare Fastify app they stay monomorphic): every record was then built through the runtime,
 * three calls per record, several records per request. The switch happened around boot's full
 * collections: V8 holds the maps a record passes through only weakly, so a collection that finds no
 * record alive can let them go, and later records build new ones. One record held from the start
 * keeps them alive, and the literal stays monomorphic (test/e2e/tick-record.test.ts).
 *
 * Imported first by main.ts, before anything else of svc loads.
 */
import { executionAsyncResource } from 'node:async_hooks';

const held: object[] = [];
process.nextTick(() => {
  // Inside a tick's callback, the executing resource is the tick's own record.
  held.push(executionAsyncResource());
});
