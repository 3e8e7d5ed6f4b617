/**
 * `catch "<code>" { status, body, headers }` on a sql step or a transaction: a database error with that
 * code answers with the declared response instead of a 500. The body may read `steps` and `ctx`.
 * Codes are matched on the connector's error (`code`, the SQLSTATE, and `codes`, the engine's own
 * numbers and names and the portable SQLSTATE of a constraint), found through `cause` chains (the
 * engine wraps a step's failure in a StepError).
 */
import { exitWith, type ExitSignal } from '../../../graph/index.js';
import type { CatchSpec } from '../../model/index.js';
import type { EndpointScope } from '../contract.js';
import { checkHeaders } from '../headers.js';
import { buildResponse } from '../response.js';

/** How deep a `cause` chain is followed for a SQLSTATE. */
const MAX_DEPTH = 4;

/** The SQLSTATE of a database failure, if the failure is one. */
export function sqlStateOf(error: unknown): string | undefined {
  let current = error;
  for (let depth = 0; depth < MAX_DEPTH && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    // A Node socket error's errno name (`syscall` set) is no SQLSTATE, even when shaped like one (EPIPE).
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !('syscall' in current)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The further codes a connector gave a database failure (ConnectorError `codes`), if any. */
function engineCodesOf(error: unknown): readonly string[] {
  let current = error;
  for (let depth = 0; depth < MAX_DEPTH && typeof current === 'object' && current !== null; depth++) {
    const codes = (current as { codes?: unknown }).codes;
    if (Array.isArray(codes)) return codes as string[];
    current = (current as { cause?: unknown }).cause;
  }
  return [];
}

/**
 * The exit a caught failure becomes, or undefined when no catch takes it. A body that fails to
 * evaluate is thrown: the step (or transaction) then fails with that error, a 500.
 */
export function caughtExit(catches: readonly CatchSpec[], error: unknown, scope: EndpointScope): ExitSignal | undefined {
  if (catches.length === 0) return undefined;
  const code = sqlStateOf(error);
  const more = engineCodesOf(error);
  const match = catches.find((c) => c.code === code || more.includes(c.code));
  if (!match) return undefined;
  const body = match.body ? match.body.evaluate(scope) : null;
  const headers = match.headers ? checkHeaders(match.headers.evaluate(scope), (message) => new Error(`catch "${match.code}" headers: ${message}`)) : undefined;
  return exitWith(buildResponse(match.status, headers, body, undefined, false));
}
