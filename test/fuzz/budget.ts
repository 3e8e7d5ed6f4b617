/**
 * How much the fuzz suite runs. `npm test` runs the short budget, with a fixed seed so a failure is
 * the same on every machine and every rerun (the whole suite well under 30 s); `npm run fuzz` sets
 * SVC_FUZZ=long: many more cases, a new seed each run (printed, so a failure can be replayed with
 * SVC_FUZZ_SEED=<seed>).
 */
import type { Parameters } from 'fast-check';

const long = process.env.SVC_FUZZ === 'long';
const seedText = process.env.SVC_FUZZ_SEED;
const SHORT_SEED = 15;

/** The seed of this run. */
export const FUZZ_SEED = seedText !== undefined && seedText !== '' ? Number(seedText) : long ? (Date.now() ^ (process.pid << 8)) | 0 : SHORT_SEED;

/**
 * fast-check parameters for one property: `short` cases in `npm test` (bounded by `shortMs` too, so
 * a slow machine stays within the budget), `long` cases or `longMs` under `npm run fuzz`.
 */
export function budget(cases: { short: number; long: number; shortMs: number; longMs: number }): Parameters<unknown> {
  if (long) process.stderr.write(`fuzz: seed ${FUZZ_SEED} (replay with SVC_FUZZ=long SVC_FUZZ_SEED=${FUZZ_SEED})\n`);
  return {
    seed: FUZZ_SEED,
    numRuns: long ? cases.long : cases.short,
    interruptAfterTimeLimit: long ? cases.longMs : cases.shortMs,
    // Stopping on time is the budget, not a failure; the runs that did happen all passed.
    markInterruptAsFailure: false,
    // The assertion's message (what was wrong with which answer) in the report, not only the input.
    includeErrorInReport: true,
  };
}

/**
 * The bound on one case: a request or a manifest check that takes longer has found a stall. Far
 * above a normal case (milliseconds), so a cold start (a Starlark worker's first program) on a loaded
 * two-CPU machine stays under it, and far below what a stall costs (a backtracking regex, a request
 * waiting for its time-out).
 */
export const CASE_MS = 5000;
