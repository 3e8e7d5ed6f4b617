import assert from 'node:assert/strict';
import { type Observable, isObservable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { compileGraphOrThrow, type GraphCompileOptions, type GraphDef, type GraphScope, type Outcome } from '../../graph/index.js';

export interface Scope extends GraphScope {
  readonly steps: Record<string, unknown>;
  readonly input?: unknown;
}

export function scope(input?: unknown): Scope {
  return { steps: {}, input };
}

export function graph(nodes: GraphDef<Scope>['nodes'], options?: GraphCompileOptions) {
  return compileGraphOrThrow<Scope>({ nodes }, options);
}

/** Outcomes flattened to plain data so marble assertions can compare them deeply. */
export function summary(outcome: Outcome): unknown {
  switch (outcome.kind) {
    case 'error':
      return { kind: 'error', step: outcome.error.step, stepKind: outcome.error.kind, category: outcome.error.category };
    case 'stream':
      return { kind: 'stream', step: outcome.step, payload: outcome.payload };
    default:
      return outcome;
  }
}

export function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => assert.deepStrictEqual(actual, expected));
}

/** The outcome of a run that must have been synchronous (fails the test if it went asynchronous). */
export function sync(result: Outcome | Observable<Outcome>): Outcome {
  assert.ok(!isObservable(result), 'expected the run to complete synchronously');
  return result as Outcome;
}
