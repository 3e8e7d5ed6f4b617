/**
 * What one call of the transform script costs the event loop through the pool (examples/validation/
 * transform.star, with the ctx the step sends: the body alone), with 16 calls in flight as a busy
 * server has them: the time per call, the event loop's share (active time, wall clock) and the CPU
 * time of the process (both threads) per call.
 *
 * Usage: node dist/bench/transform/per-call.js [calls]     (or node --import tsx bench/transform/per-call.ts)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileModule } from '../../src/starlark/index.js';
import type { EndpointScope } from '../../src/steps/index.js';
import { contextPlan } from '../../src/steps/starlark/context.js';
import { StarlarkPool } from '../../src/steps/starlark/pool.js';

const calls = Number(process.argv[2] ?? 50_000);
const file = join(process.cwd(), 'examples/validation/transform.star');
const source = readFileSync(file, 'utf8');
const { program } = compileModule(source, file);
const plan = contextPlan(program!.parameterReads('execute'));
const scope = (): EndpointScope => ({
  ctx: {
    request: {
      method: 'POST',
      path: {},
      query: {},
      headers: { host: '127.0.0.1:8080', 'content-type': 'application/json', 'content-length': '86' },
      body: { prefix: 't', tags: [' Alpha ', '', 'beta', 'GAMMA ', ' delta', 'Epsilon', '  ', 'zeta'] },
    },
    timestamp_epoch: 1_700_000_000,
    request_id: 'req-1',
    auth: null,
  },
  steps: {},
});

const pool = new StarlarkPool();
const registered = pool.register(source, file, 1e6, 1000);
const one = () => pool.call(registered, plan(scope()), 1e6, 1000).result;
await Promise.all(Array.from({ length: pool.size * 16 }, one)); // started and loaded
let next = 0;
const run = async (n: number, inFlight: number): Promise<void> => {
  next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < n) await one();
    }),
  );
};
await run(5000, 16);
const t = performance.now();
const elu = performance.eventLoopUtilization();
const cpu = process.cpuUsage();
await run(calls, 16);
const perCallUs = ((performance.now() - t) * 1000) / calls;
const eventLoopUs = (performance.eventLoopUtilization(elu).active * 1000) / calls;
// CPU time of the process (event loop and worker), steadier than wall time on a shared machine
const used = process.cpuUsage(cpu);
const cpuUs = (used.user + used.system) / calls;
const round = (n: number) => Math.round(n * 10) / 10;
process.stdout.write(
  `${JSON.stringify({ calls, workers: pool.size, inFlight: 16, perCallUs: round(perCallUs), eventLoopUs: round(eventLoopUs), cpuUs: round(cpuUs) })}\n`,
);
