/**
 * The request validator of an endpoint, compiled once at boot by src/schema (SPEC.md §2.4): path,
 * query, header and body values checked and coerced before the pipeline runs; a failure is a 422
 * problem listing every failed constraint, and no step runs.
 */
import type { FastifyRequest } from 'fastify';
import type { Problem } from '../problem/index.js';
import { type RequestSpec, compileRequestValidator, validationProblem, type RequestInput, type ValidatedRequest } from '../schema/index.js';
import { requestPath } from './problems.js';

export type Validation = { readonly ok: true; readonly value: ValidatedRequest } | { readonly ok: false; readonly problem: Problem };

/** `request` only supplies the problem's `instance`, and only when validation fails. */
export type RequestValidator = (input: RequestInput, request: FastifyRequest) => Validation;

/**
 * `undefined` when the endpoint declares no path, query or header field and no body: nothing would
 * be checked or converted, and the request goes to the pipeline as the router parsed it.
 */
export function compileValidator(spec: RequestSpec): RequestValidator | undefined {
  const validator = compileRequestValidator(spec);
  if (Object.keys(validator.schemas).length === 0) return undefined;
  return (input, request) => {
    const result = validator.validate(input);
    return result.ok ? result : { ok: false, problem: validationProblem(result.invalidParams, requestPath(request)) };
  };
}

/** Whether the endpoint declares a JSON body (then other media types are refused with 415). */
export function declaresJsonBody(spec: RequestSpec): boolean {
  return spec.body !== undefined;
}
