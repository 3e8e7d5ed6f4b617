/**
 * An operation's responses (SPEC.md §4.5): every status the steps answer with (what their kinds'
 * `responses` say, read from the model: a respond's, a stream's) or a `catch` block does, each with
 * its media type, its inferred body schema and its headers; then the answers svc gives itself
 * (standard-responses.ts), those of the steps' failures among them (their kinds' `failures`), and
 * what ETags and Cache-Control add (conditional.ts). Statuses are listed in ascending order;
 * responses that share a status are merged (their body schemas become a union).
 */
import type { PossibleStatuses } from '../expr/index.js';
import type { Expression } from '../hcl/index.js';
import type { AuthModel, BodyResponse, CatchSpec, FieldSpec, PipelineEndpointModel, StreamResponse } from '../model/index.js';
import { reasonPhrase } from '../problem/index.js';
import type { JsonSchema } from '../schema/index.js';
import { addConditionalResponses } from './conditional.js';
import type { HeaderObject, MediaTypeObject, RefObject, ResponseObject } from './document-types.js';
import { inferExpr, inferSyntax, syntaxOf, type InferScope } from './infer.js';
import { canonical, unionOf } from './schema-union.js';
import { STANDARD_STATUS, type StandardResponse, type StandardResponses } from './standard-responses.js';
import { checksClaims, fetchesKeys } from './security.js';
import { rowSchema } from './step-outputs.js';
import { allSteps, catchesOf, declaresOutputs, isSql } from './step-views.js';

const PROBLEM_JSON = 'application/problem+json';
const JSON_TYPE = 'application/json';

/** One way a status can be answered. */
interface Variant {
  readonly mediaType?: string;
  readonly schema?: JsonSchema;
  readonly headers: ReadonlyMap<string, JsonSchema>;
  /** Said in the description (what a stream sends). */
  readonly note?: string;
}

/** `default` stands for a status computed at run time. */
type StatusKey = number | 'default';

export function operationResponses(
  endpoint: PipelineEndpointModel,
  guards: readonly AuthModel[],
  scope: InferScope,
  standard: StandardResponses,
): Record<string, ResponseObject | RefObject> {
  const byStatus = new Map<StatusKey, Variant[]>();
  const add = (status: StatusKey, variant: Variant): void => {
    byStatus.set(status, [...(byStatus.get(status) ?? []), variant]);
  };

  for (const response of endpoint.responses) {
    if (response.kind === 'body') {
      const variant = bodyVariant(response, scope);
      for (const status of listed(response.statuses)) add(status, variant);
    } else {
      add(200, streamVariant(response, scope));
    }
  }
  for (const step of allSteps(endpoint.steps)) for (const c of catchesOf(step)) add(c.status, catchVariant(c, scope));

  const out: Record<string, ResponseObject | RefObject> = {};
  const keys = [...byStatus.keys()].sort((a, b) => (a === 'default' ? 1 : b === 'default' ? -1 : a - b));
  const statuses = new Set(keys);
  // svc's own answers, unless the pipeline answers that status itself.
  const own: StandardResponse[] = [];
  const request = endpoint.request;
  const validates =
    request.body !== undefined || request.path.some(constrained) || [...request.query, ...request.headers].some((f) => f.required || constrained(f));
  if (request.body !== undefined) own.push('BadRequest', 'PayloadTooLarge', 'UnsupportedMediaType');
  if (validates) own.push('ValidationFailed');
  if (guards.length > 0) own.push('Unauthorized');
  if (guards.some(checksClaims)) own.push('Forbidden');
  if (endpoint.rateLimit !== undefined) own.push('TooManyRequests');
  own.push('InternalError');
  // What the steps' failures can answer with, as their kinds say (src/model answers.ts).
  for (const status of endpoint.failureStatuses) {
    const name = FAILURE_RESPONSE[status];
    if (name !== undefined && !own.includes(name)) own.push(name);
  }
  if (guards.some(fetchesKeys) && !own.includes('ServiceUnavailable')) own.push('ServiceUnavailable');
  const all = [...keys.filter((k) => k !== 'default'), ...own.map((n) => STANDARD_STATUS[n]).filter((s) => !statuses.has(s))].sort((a, b) => a - b);
  for (const status of all) {
    const name = own.find((n) => STANDARD_STATUS[n] === status);
    out[String(status)] = statuses.has(status) ? merge(status, byStatus.get(status)!) : standard.ref(name!);
  }
  if (statuses.has('default')) out.default = merge('default', byStatus.get('default')!);
  addConditionalResponses(out, endpoint);
  return out;
}

/** The shared response of each status a step's failure can have (`FailureStatus`, src/model). */
const FAILURE_RESPONSE: Readonly<Record<number, StandardResponse>> = {
  400: 'BadRequest',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
  504: 'GatewayTimeout',
};

/** Whether a value that is present can fail its field's validation: a plain string never does. */
function constrained(field: FieldSpec): boolean {
  if (field.type.kind !== 'string' && field.type.kind !== 'any') return true;
  const constraints = [field.enum, field.format, field.pattern, field.minLength, field.maxLength, field.min, field.max, field.minItems, field.maxItems];
  return constraints.some((c) => c !== undefined) || field.uniqueItems === true;
}

// ------------------------------------------------------------------ a body (respond)

/**
 * The statuses of a body answer, as its kind read them from the manifest's text (svc graph labels
 * the step with the same); `default` when computed. A status outside 100-599 fails the step at run
 * time: not one to document, so such a list is not honest either.
 */
function listed(statuses: PossibleStatuses): StatusKey[] {
  if (statuses === 'computed' || !statuses.every((n) => Number.isInteger(n) && n >= 100 && n <= 599)) return ['default'];
  return [...statuses];
}

function unwrap(e: Expression): Expression {
  return e.kind === 'Parenthesized' ? unwrap(e.expr) : e;
}

function bodyVariant(step: BodyResponse, scope: InferScope): Variant {
  const headers = headerSchemas(step.headers && syntaxOf(step.headers, scope), scope);
  const declaredType = takeContentType(headers);
  if (step.body === undefined) return { headers };
  const syntax = syntaxOf(step.body, scope);
  if (syntax !== undefined && syntax.kind === 'Literal' && syntax.value === null) return { headers };
  const inferred = inferExpr(step.body, scope);
  const problem = isProblem(inferred, scope);
  const mediaType = problem ? PROBLEM_JSON : typeof declaredType?.const === 'string' ? mediaTypeOf(declaredType.const) : JSON_TYPE;
  // A declared `schema` is the body's contract (the server sends only its fields): a `$ref` to the
  // named schema, or a list of it, shared by every response that declares it. A problem() body is
  // sent as it is, so it stays the Problem.
  const schema = step.schema !== undefined && !problem ? scope.components.type(step.schema) : inferred;
  // A text body sent as is (an HTML page, a CSV) is documented as text, not quoted in full.
  if (!/[/+]json$/.test(mediaType) && schema.type === 'string') return { mediaType, schema: { type: 'string' }, headers };
  return { mediaType, schema, headers };
}

/** Removes the Content-Type header (it is the media type, not a header of the response) and returns its schema. */
function takeContentType(headers: Map<string, JsonSchema>): JsonSchema | undefined {
  const name = [...headers.keys()].find((n) => n.toLowerCase() === 'content-type');
  if (name === undefined) return undefined;
  const schema = headers.get(name);
  headers.delete(name);
  return schema;
}

/** Header names of a `headers = { ... }` literal, as written, and the schemas of their values. */
function headerSchemas(syntax: Expression | undefined, scope: InferScope): Map<string, JsonSchema> {
  const out = new Map<string, JsonSchema>();
  const e = syntax && unwrap(syntax);
  if (e?.kind !== 'ObjectCons') return out;
  for (const item of e.items) {
    const key = unwrap(item.key);
    const name =
      key.kind === 'Literal'
        ? key.value
        : key.kind === 'Template' && key.parts.every((p) => p.kind === 'TemplateLiteral')
          ? key.parts.map((p) => p.value).join('')
          : undefined;
    if (typeof name !== 'string') continue;
    const value = inferSyntax(item.value, scope);
    // Header values are text: a literal keeps its value, anything else is some string.
    out.set(name, typeof value.const === 'string' ? { type: 'string', const: value.const } : { type: 'string' });
  }
  return out;
}

function isProblem(schema: JsonSchema, scope: InferScope): boolean {
  return canonical(schema) === canonical(scope.components.problem());
}

function mediaTypeOf(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

// ------------------------------------------------------------------ stream and catch

function streamVariant(step: StreamResponse, scope: InferScope): Variant {
  const headers = headerSchemas(step.headers && syntaxOf(step.headers, scope), scope);
  takeContentType(headers);
  const { note } = step;
  const mediaType = mediaTypeOf(step.contentType);
  if (step.body === 'bytes') return { mediaType, headers, note };
  if (step.body === 'text') return { mediaType, schema: { type: 'string' }, headers, note };
  const item = itemSchema(step, scope);
  return item === undefined ? { mediaType, headers, note } : { mediaType, schema: item, headers, note };
}

/** The schema of each item: the step's `schema`, else the row of the sql step it streams. */
function itemSchema(step: StreamResponse, scope: InferScope): JsonSchema | undefined {
  if (step.schema !== undefined) return scope.components.type(step.schema);
  const source = syntaxOf(step.source, scope);
  if (source?.kind === 'ScopeTraversal' && source.root === 'steps' && source.steps.length === 2) {
    const [name, output] = source.steps;
    const producer = name?.kind === 'Attr' ? scope.steps.get(name.name) : undefined;
    if (producer && isSql(producer) && output?.kind === 'Attr' && output.name === 'stream') return rowSchema(producer, scope.sqlColumns);
    if (producer && declaresOutputs(producer) && output?.kind === 'Attr' && output.name === 'stream') return producer.itemSchema;
  }
  return undefined;
}

function catchVariant(c: CatchSpec, scope: InferScope): Variant {
  if (c.body === undefined) return { headers: new Map(), note: `The database reported SQLSTATE ${c.code}.` };
  const schema = inferExpr(c.body, scope);
  return { mediaType: isProblem(schema, scope) ? PROBLEM_JSON : JSON_TYPE, schema, headers: new Map(), note: `The database reported SQLSTATE ${c.code}.` };
}

// ------------------------------------------------------------------ merging

const SUCCESS: Readonly<Record<number, string>> = {
  100: 'Continue',
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  203: 'Non-Authoritative Information',
  204: 'No Content',
  205: 'Reset Content',
  206: 'Partial Content',
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
};

function merge(status: StatusKey, variants: readonly Variant[]): ResponseObject {
  const notes = [...new Set(variants.map((v) => v.note).filter((n): n is string => n !== undefined))];
  const title = status === 'default' ? 'A status computed at run time.' : `${SUCCESS[status] ?? reasonPhrase(status)}.`;
  const description = [title, ...notes].join(' ');

  const byMedia = new Map<string, (JsonSchema | undefined)[]>();
  for (const v of variants) if (v.mediaType !== undefined) byMedia.set(v.mediaType, [...(byMedia.get(v.mediaType) ?? []), v.schema]);
  const content: Record<string, MediaTypeObject> = {};
  for (const [mediaType, schemas] of byMedia) {
    content[mediaType] = schemas.some((s) => s === undefined) ? {} : { schema: unionOf(schemas as JsonSchema[]) };
  }

  const names = [...new Set(variants.flatMap((v) => [...v.headers.keys()]))].sort();
  const headers: Record<string, HeaderObject> = {};
  for (const name of names) {
    const schemas = variants.map((v) => v.headers.get(name));
    const everywhere = schemas.every((s) => s !== undefined);
    headers[name] = { ...(everywhere ? { required: true } : {}), schema: unionOf(schemas.filter((s): s is JsonSchema => s !== undefined)) };
  }

  return {
    description,
    ...(names.length > 0 ? { headers } : {}),
    ...(byMedia.size > 0 ? { content } : {}),
  };
}
