/**
 * A failed run's category (graph/errors.ts `Category`, or a connector classifier's) -> the status of
 * its problem answer, in one place (DECISIONS.md §3): timeout 504, dependency-unavailable 503,
 * bad-gateway 502 (an upstream HTTP server refused, reset or sent the unacceptable), bad-request 400
 * (a request value the database refused), else 500; src/problem names the types. Below the HTTP edge
 * because `on_error = "continue"` reports the same in a step's outputs (./continue.ts).
 */
import { Category } from '../../graph/index.js';
import type { FailureStatus } from '../model/index.js';

/** The category a connector's classifier gives an outage (refused connection, exhausted pool). */
const DEPENDENCY_UNAVAILABLE = 'dependency-unavailable';
/** The category of a failed outbound HTTP exchange (src/connectors/http). */
const BAD_GATEWAY = 'bad-gateway';
/** A value of the request the database refused (SQLSTATE class 22: a NUL character, out of range). */
const INVALID_INPUT = 'invalid-input';

/** A step kind's `failures` name the statuses of the categories its failures can have. */
const STATUS_OF_CATEGORY: Readonly<Record<string, FailureStatus>> = {
  [Category.timeout]: 504,
  [DEPENDENCY_UNAVAILABLE]: 503,
  [BAD_GATEWAY]: 502,
  [INVALID_INPUT]: 400,
};

export function failureStatus(category: string): FailureStatus | 500 {
  return Object.hasOwn(STATUS_OF_CATEGORY, category) ? STATUS_OF_CATEGORY[category]! : 500;
}
