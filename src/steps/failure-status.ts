/**
 * A failed run's category (graph/errors.ts `Category`, or a connector classifier's) -> the status of
 * its problem answer, in one place (DECISIONS.md §3): a time-out is a 504 (problem type
 * `urn:svc:error:timeout`), an unreachable or exhausted dependency a 503 (`dependency-unavailable`),
 * an upstream HTTP server that refused, reset or sent what cannot be accepted a 502 (`bad-gateway`,
 * the project's own addition), a value of the request the database refused a 400 (`bad-request`),
 * everything else a 500 (`internal`). src/problem names the types. Here, below the HTTP edge, since
 * a step with `on_error = "continue"` says the same of its own failure in its outputs (./continue.ts).
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
