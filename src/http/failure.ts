/**
 * A failed run's category (graph/errors.ts `Category`, or a connector classifier's) -> the status of
 * its problem answer, in one place (DECISIONS.md §3): a time-out is a 504 `gateway-timeout`, an
 * unreachable or exhausted dependency a 503 `service-unavailable`, everything else a 500.
 */
import { Category } from '../../graph/index.js';

/** The category a connector's classifier gives an outage (refused connection, exhausted pool). */
const DEPENDENCY_UNAVAILABLE = 'dependency-unavailable';

const STATUS_OF_CATEGORY: Readonly<Record<string, 503 | 504>> = {
  [Category.timeout]: 504,
  [DEPENDENCY_UNAVAILABLE]: 503,
};

export function failureStatus(category: string): 500 | 503 | 504 {
  return Object.hasOwn(STATUS_OF_CATEGORY, category) ? STATUS_OF_CATEGORY[category]! : 500;
}
