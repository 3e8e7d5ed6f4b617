// The run state of the current call: step budget, deadline, depth, print and
// load. Execution is synchronous, so it lives in one module-level object (RT),
// saved and restored around each host entry point (program.ts withRun). This
// module is a leaf (it imports only value types) so that value operations can
// charge work to the step budget without an import cycle.

import { EvalErr, type Value } from './values/types.js';

export interface RunState {
  steps: number;
  checkAt: number; // next step count at which tick() must run
  maxSteps: number;
  deadline: number; // ms since epoch (performance.now base), Infinity if none
  depth: number;
  maxDepth: number;
  recursion: boolean;
  print: (msg: string) => void;
  aborted: string | null; // set by the host to cancel
  timeoutMs: number;
  /** the host's loader for load("module", ...), or null if loading is refused */
  load: ((module: string) => Map<string, Value>) | null;
}

/** How often (in steps) the wall clock is consulted. */
export const CLOCK_EVERY = 1024;

export const RT: RunState = {
  steps: 0, checkAt: Infinity, maxSteps: Infinity, deadline: Infinity, depth: 0, maxDepth: 1000,
  recursion: true, print: () => {}, aborted: null, timeoutMs: 0, load: null,
};

/** Called when steps reach checkAt: enforce the step budget and the deadline. */
export function tick(): void {
  if (RT.steps > RT.maxSteps) throw new EvalErr(`Starlark computation cancelled: too many steps (limit ${RT.maxSteps})`, 'steps');
  if (RT.aborted !== null) throw new EvalErr(`Starlark computation cancelled: ${RT.aborted}`, 'cancelled');
  if (performance.now() > RT.deadline) throw new EvalErr(`Starlark computation cancelled: timeout after ${RT.timeoutMs} ms`, 'timeout');
  RT.checkAt = Math.min(RT.steps + CLOCK_EVERY, RT.maxSteps);
}

/**
 * Charge bulk work (e.g. sorting or copying n elements) to the step budget:
 * one step per 64 units. This also makes the clock be consulted during loops
 * whose iterations call expensive built-ins.
 */
export function chargeSteps(units: number): void {
  RT.steps += units >> 6;
  if (RT.steps > RT.checkAt) tick();
}
