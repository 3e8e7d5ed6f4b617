/**
 * Keeps one of Node's `process.nextTick` records alive for the life of the process, so every later
 * `nextTick` stays on V8's fast path. V8 holds the maps of the record's object literal only weakly;
 * boot's full collections let them go, its computed keys turned megamorphic for good, and each record
 * was then built through the runtime (bench/health README "nextTick kept monomorphic": 8 % of a
 * request's CPU). Checked by test/e2e/tick-record.test.ts. Imported first by main.ts, before anything
 * else of svc loads.
 */
import { executionAsyncResource } from 'node:async_hooks';

const held: object[] = [];
process.nextTick(() => {
  // Inside a tick's callback, the executing resource is the tick's own record.
  held.push(executionAsyncResource());
});
