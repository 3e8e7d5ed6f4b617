/**
 * The graph's classifier hook for connector failures (graph/ `Classifier`): a ConnectorError carries
 * its category; a raw driver error is asked of every kind. Undefined means "not a connector
 * outage": a failed SQL statement is a 500 unless a `catch "<SQLSTATE>"` block takes it (its code is
 * the ConnectorError's `code`).
 */
import { ConnectorError } from './errors.js';
import { CONNECTOR_KINDS } from './kinds.js';

/** How deep a `cause` chain is followed (a StepError around a ConnectorError around a driver error). */
const MAX_DEPTH = 4;

export function classifyConnectorError(cause: unknown): string | undefined {
  let current = cause;
  for (let depth = 0; depth < MAX_DEPTH && current instanceof Error; depth++) {
    if (current instanceof ConnectorError) return current.category;
    for (const kind of CONNECTOR_KINDS) {
      const category = kind.classify(current);
      if (category !== undefined) return category;
    }
    current = current.cause;
  }
  return undefined;
}
