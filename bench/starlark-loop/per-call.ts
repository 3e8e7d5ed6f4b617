/**
 * What running a script on the worker pool costs per call, against calling it on the event loop:
 * the trivial script of manifest/trivial.star with a request-sized ctx, sequentially (the latency
 * one call adds) and with 8 calls in flight (the throughput of a busy server).
 *
 * Usage: node dist/bench/starlark-loop/per-call.js [calls]
 * Prints one JSON line: microseconds per call for each way.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { callFunction, compileModule, toJS } from '../../src/starlark/index.js';
import { contextValue } from '../../src/steps/starlark/context.js';
import { StarlarkPool } from '../../src/steps/starlark/pool.js';
import type { CallContext } from '../../src/steps/starlark/protocol.js';

const calls = Number(process.argv[2] ?? 20000);
const source = readFileSync(join(process.cwd(), 'bench/starlark-loop/manifest/trivial.star'), 'utf8');
const ctx: CallContext = {
  request: {
    method: 'POST',
    path: { id: '42' },
    query: { verbose: 'true' },
    headers: { host: '127.0.0.1:8080', 'user-agent': 'bench', accept: '*/*', 'content-type': 'application/json', 'content-length': '48' },
    body: { name: 'widget', tags: ['a', 'b', 'c'], price: 12.5 },
  },
  timestamp_epoch: 1_700_000_000,
  request_id: 'req-1',
  auth: null,
  steps: { lookup: { id: 42, name: 'widget' } },
};

const { program } = compileModule(source, 'trivial.star');
const module = program!.init();
function inThread(): unknown {
  return toJS(callFunction(module, 'execute', [contextValue(ctx)], { maxSteps: 1e6, timeoutMs: 1000 }));
}
for (let i = 0; i < 2000; i++) inThread();
let t = performance.now();
for (let i = 0; i < calls; i++) inThread();
const inThreadUs = ((performance.now() - t) * 1000) / calls;

const pool = new StarlarkPool();
const registered = pool.register(source, 'trivial.star', 1e6, 1000);
const one = () => pool.call(registered, ctx, 1e6, 1000).result;
await Promise.all(Array.from({ length: pool.size * 4 }, one)); // every worker started and loaded
for (let i = 0; i < 2000; i++) await one();
t = performance.now();
for (let i = 0; i < calls; i++) await one();
const sequentialUs = ((performance.now() - t) * 1000) / calls;
t = performance.now();
const elu = performance.eventLoopUtilization();
let next = 0;
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (next++ < calls) await one();
  }),
);
const concurrentUs = ((performance.now() - t) * 1000) / calls;
// the event loop's own share: what a call costs the thread that serves every other request
const eventLoopUs = (performance.eventLoopUtilization(elu).active * 1000) / calls;
process.stdout.write(
  `${JSON.stringify({ calls, workers: pool.size, inThreadUs, poolSequentialUs: sequentialUs, poolConcurrentUs: concurrentUs, eventLoopUs })}\n`,
);
