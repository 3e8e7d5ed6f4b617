/**
 * `respond` as a graph exit node (SPEC.md §4.1 rule 1): with a `condition` it ends the pipeline when
 * the condition is true and is skipped when false; without one it always ends it.
 *
 * Everything that can be decided at boot is: a constant body is evaluated and serialized once, and a
 * fully constant, unconditional respond hands the very same result object to every request. A run
 * evaluates only what depends on the request, synchronously. A declared `schema` is compiled here
 * into a mask (src/schema compileMask), so a run only walks the declared fields.
 */
import { messageOf, type ExitNodeDef } from '../../../graph/index.js';
import { jsonLengthExceeds, MAX_RESPONSE_CHARS, ResponseTooLarge, responseJson } from '../../expr/index.js';
import { isMarkedProblem } from '../../problem/index.js';
import type { Expr } from '../../model/index.js';
import { compileMask, MissingRequiredField, type TypeSpec } from '../../schema/index.js';
import type { EndpointScope, ResponseResult } from '../contract.js';
import type { NodeCompiler } from '../definition.js';
import { checkHeaders } from '../headers.js';
import { buildResponse as build } from '../response.js';
import type { RespondStepSpec } from './spec.js';

/** A respond step failed at run time (bad status, bad headers, bad condition). */
export class RespondError extends Error {
  override readonly name = 'RespondError';
}

export const compileRespond: NodeCompiler<RespondStepSpec> = (spec, env) => {
  let headers: Part<Record<string, string> | undefined>;
  let body: Part<unknown>;
  // A constant body is serialized once, here.
  let json: string | undefined;
  try {
    headers = spec.headers ? partOf(spec.headers, checkRespondHeaders) : constant(undefined);
    body = spec.body ? partOf(spec.body, spec.schema ? declaredBody(spec.schema) : (v) => v) : constant(null);
    json = body.constant && body.value !== null && body.value !== undefined ? JSON.stringify(body.value) : undefined;
  } catch (error) {
    // A constant that is wrong is wrong for every request: a boot error, not a 500 at run time.
    env.error(spec, 'Invalid respond step', messageOf(error));
    return undefined;
  }
  const statusCode = spec.statusCode ?? 200;
  if (!spec.status && statusCode < 200) {
    env.error(spec, 'Invalid respond status', `${statusCode} is an interim (1xx) status; a respond sends a final response (200-599).`);
    return undefined;
  }
  const status = spec.status ? dynamic(spec.status, checkStatus) : constant(statusCode);

  const statusFromProblem = spec.statusOmitted === true;

  // The response itself, when nothing in it depends on the request.
  let fixed: ResponseResult | undefined;
  if (status.constant && headers.constant && body.constant) fixed = build(status.value, headers.value, body.value, json, statusFromProblem);

  const condition = spec.condition;
  const node: ExitNodeDef<EndpointScope> = {
    type: 'exit',
    kind: 'respond',
    id: env.idOf(spec),
    reads: env.readsOf([spec.condition, spec.status, spec.headers, spec.body]),
    label: describe(spec),
    meta: spec,
    ...(condition ? { condition: (scope: EndpointScope) => checkCondition(condition.evaluate(scope)) } : {}),
    run: fixed
      ? () => fixed
      : (scope) => {
          const h = headers.constant ? headers.value : headers.get(scope);
          if (body.constant) return build(status.constant ? status.value : status.get(scope), h, body.value, json, statusFromProblem);
          const b = body.get(scope);
          return build(status.constant ? status.value : status.get(scope), h, b, serialize(b, h), statusFromProblem);
        },
  };
  return node;
};

type Part<T> = { readonly constant: true; readonly value: T } | { readonly constant: false; readonly get: (scope: EndpointScope) => T };

function constant<T>(value: T): Part<T> {
  return { constant: true, value };
}

function dynamic<T>(expr: Expr, check: (v: unknown) => T): Part<T> {
  return { constant: false, get: (scope) => check(expr.evaluate(scope)) };
}

/** Constant expressions are evaluated once here; a pure constant never changes between requests. */
function partOf<T>(expr: Expr, check: (v: unknown) => T): Part<T> {
  return expr.constant ? constant(check(expr.evaluate({}))) : dynamic(expr, check);
}

/**
 * The body as its declared schema shapes it: only the declared fields, through nested objects and
 * lists, so a column the schema does not name (a password hash) is never sent. A declared required
 * field the body lacks fails the step (a 500 naming it, the field in the log): the answer would
 * contradict the contract its clients were generated from. A `problem()` body, sent as
 * application/problem+json and documented as such, and no body pass as they are.
 */
function declaredBody(schema: TypeSpec): (value: unknown) => unknown {
  const mask = compileMask(schema, { requireFields: true });
  return (value) => {
    if (value === null || value === undefined || isMarkedProblem(value)) return value;
    try {
      return mask(value);
    } catch (error) {
      if (!(error instanceof MissingRequiredField)) throw error;
      throw new RespondError(`the body does not have what its declared schema requires: ${error.message} (at ${error.where()})`, { cause: error });
    }
  };
}

/** A final response status: 1xx statuses are interim and cannot end a pipeline. */
function checkStatus(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 200 && value <= 599) return value;
  throw new RespondError(`status must be an HTTP status code (200-599), got ${JSON.stringify(value)}`);
}

function checkCondition(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  // A missing value in dynamic data is null (DECISIONS.md §2): treated as false, as a guard should.
  if (value === null || value === undefined) return false;
  throw new RespondError(`condition must be a bool, got ${typeof value}`);
}

/**
 * A computed body's JSON text, written here rather than by the HTTP adapter so that a body over
 * MAX_RESPONSE_CHARS (a list repeating the same large value once per element of request data) fails
 * this step, named in the 500, before any of it is written. A problem body is only measured (the
 * adapter adds its `instance`), a text body with its own Content-Type only counted.
 */
function serialize(body: unknown, headers: Record<string, string> | undefined): string | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string' && headers !== undefined && hasContentType(headers)) {
    if (body.length > MAX_RESPONSE_CHARS) throw new ResponseTooLarge();
    return undefined;
  }
  if (isMarkedProblem(body)) {
    if (jsonLengthExceeds(body, MAX_RESPONSE_CHARS)) throw new ResponseTooLarge();
    return undefined;
  }
  return responseJson(body);
}

function hasContentType(headers: Record<string, string>): boolean {
  for (const name in headers) if (name.length === 12 && name.toLowerCase() === 'content-type') return true;
  return false;
}

function checkRespondHeaders(value: unknown): Record<string, string> | undefined {
  return checkHeaders(value, (message) => new RespondError(message));
}

/** `svc graph`'s label: the status it answers with, each possible one, or that it is computed. */
function describe(spec: RespondStepSpec): string {
  const statuses = knownStatuses(spec);
  return statuses === undefined ? 'status computed' : `status ${statuses.join(' or ')}`;
}

/** The statuses a respond can answer with, known at boot; undefined when computed from request data. */
export function knownStatuses(spec: RespondStepSpec): readonly number[] | undefined {
  const possible = spec.possibleStatuses ?? (spec.statusCode !== undefined ? [spec.statusCode] : 'computed');
  return possible === 'computed' ? undefined : possible;
}
