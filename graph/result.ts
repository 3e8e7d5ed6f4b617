import type { StepInfo } from './info.js';
import type { ExitOutcome } from './types.js';

/*
 * The markers a `run` (or a container's `leave`) may wrap its value in. They live in a file of their
 * own because both the invocation of a node (step.ts) and the nodes that read them (exit.ts,
 * container.ts) need them, and those must not import each other.
 */

/**
 * Returned by a step (or a container's `leave`) to end the run with an exit outcome instead of
 * producing an output: how a `catch` block turns a database error into its declared response.
 */
export class ExitSignal {
  constructor(readonly payload: unknown) {}
}

export function exitWith(payload: unknown): ExitSignal {
  return new ExitSignal(payload);
}

export function exitOutcome(info: StepInfo, payload: unknown): ExitOutcome {
  return { kind: 'exit', step: info.id, payload };
}

/** Marks a value to be stored as is, even if it is a Promise or an Observable. */
export class Value<T = unknown> {
  constructor(readonly value: T) {}
}

/** Makes a step output a Promise or an Observable itself instead of awaiting it. */
export function asValue<T>(value: T): Value<T> {
  return new Value(value);
}

/** A Promise or any other thenable (what a `run`, an `enter` or a release may return to go async). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}
