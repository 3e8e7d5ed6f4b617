/**
 * The problem bodies of request validation (SPEC.md §7): 422 for failed constraints, 400 for a body
 * that is not JSON. Built on src/problem so type URNs and titles stay in one place.
 */
import { markProblem, problem, type InvalidParam, type Problem } from '../problem/index.js';

export const VALIDATION_TITLE = 'Unprocessable Entity';
export const VALIDATION_DETAIL = 'Request payload failed schema validation constraints';
export const INVALID_JSON_TITLE = 'Invalid Request Payload';

/** `{type: urn:svc:error:validation-error, title, status: 422, detail, instance, invalid_params}`. */
export function validationProblem(invalidParams: InvalidParam[], instance: string): Problem {
  const body = problem(422, VALIDATION_TITLE, VALIDATION_DETAIL, instance);
  body.invalid_params = invalidParams;
  return markProblem(body);
}

/** The 400 of a malformed body; `message` comes from `parseJsonBody`. */
export function invalidJsonProblem(message: string, instance: string): Problem {
  return markProblem(problem(400, INVALID_JSON_TITLE, `invalid JSON payload: ${message}`, instance));
}
