/**
 * Request validators: one per endpoint, compiled at boot, run on every request (SPEC.md §2.4). Per
 * coordinate: text -> typed for path, query and headers (coerce.ts; anything inexact stays text so
 * ajv reports it), one precompiled ajv function (allErrors, defaults), and on failure errors.ts's
 * `invalid_params`. All four coordinates are always validated: one 422 lists every failure.
 *
 * `value` is read-only: path, query and headers may be the incoming object itself when nothing needed
 * converting (undeclared entries pass as text; `__proto__` is never copied). The body is completed IN
 * PLACE with defaults; an absent body is validated as `{}` so optional fields get their defaults.
 * Header names are looked up lower-cased, as Node hands them over.
 */
import type { ValidateFunction } from 'ajv';
import type { InvalidParam } from '../problem/index.js';
import type { Coordinate, FieldSpec, ObjectTypeSpec, RequestSpec } from './field.js';
import { sharedAjv } from './ajv.js';
import { checkRequestSpec, SchemaError } from './check.js';
import { isTextIdentity, textParser, type TextParser, type TextValue } from './coerce.js';
import { mapErrors } from './errors.js';
import { toJsonSchema, toValidatorSchema, type JsonSchema } from './json-schema.js';

export type TextInput = Record<string, string | readonly string[]>;
export type HeaderInput = Record<string, string | readonly string[] | undefined>;

export interface RequestInput {
  readonly path: Readonly<Record<string, string>>;
  readonly query: Readonly<TextInput>;
  readonly headers: Readonly<HeaderInput>;
  readonly body: unknown;
}

export interface ValidatedRequest {
  readonly path: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly body: unknown;
}

export type ValidationResult = { readonly ok: true; readonly value: ValidatedRequest } | { readonly ok: false; readonly invalidParams: InvalidParam[] };

export interface RequestValidator {
  validate(input: RequestInput): ValidationResult;
  /** The JSON Schemas the validator runs, per coordinate (for debugging and tests). */
  readonly schemas: Readonly<Partial<Record<Coordinate, JsonSchema>>>;
}

/**
 * At most this many `invalid_params` entries (the first, in the documented order): against the
 * request made on purpose, where a 1 MiB body of 250,000 wrong elements would make a 15 MB problem.
 */
export const DEFAULT_MAX_INVALID_PARAMS = 100;

export interface ValidatorOptions {
  readonly maxInvalidParams?: number;
}

/**
 * Compiles the validator of one endpoint. Throws `SchemaError` with every error of check.ts when the
 * spec cannot be validated as declared (src/model reports those as diagnostics before calling this).
 */
export function compileRequestValidator(spec: RequestSpec, options: ValidatorOptions = {}): RequestValidator {
  const maxInvalidParams = options.maxInvalidParams ?? DEFAULT_MAX_INVALID_PARAMS;
  // ajv errors mapped per coordinate: enough that the first `maxInvalidParams` entries are exact for
  // any realistic request, bounded for hostile ones (errors.ts).
  const mapLimit = Math.max(1000, maxInvalidParams * 10);
  // Warnings are src/model's to report; they do not stop the compile.
  const errors = checkRequestSpec(spec).filter((i) => i.severity === 'error');
  if (errors.length > 0) throw new SchemaError(errors);

  const path = compileText(spec.path, 'path', mapLimit);
  const query = compileText(spec.query, 'query', mapLimit);
  const headers = compileText(spec.headers, 'header', mapLimit);
  const body = spec.body === undefined ? undefined : compileBody(spec.body, mapLimit);

  const schemas: Partial<Record<Coordinate, JsonSchema>> = {};
  if (path !== undefined) schemas.path = path.schema;
  if (query !== undefined) schemas.query = query.schema;
  if (headers !== undefined) schemas.header = headers.schema;
  if (body !== undefined) schemas.body = body.schema;

  return {
    schemas,
    validate(input: RequestInput): ValidationResult {
      // Each phase runs even after a failure, so the 422 lists the failures of every coordinate.
      const p = path === undefined ? input.path : path.prepare(input.path);
      const q = query === undefined ? input.query : query.prepare(input.query);
      const h = headers === undefined ? input.headers : headers.prepare(input.headers);
      const b = body === undefined ? input.body : input.body === undefined ? {} : input.body;
      const pOk = path === undefined || path.check(p);
      const qOk = query === undefined || query.check(q);
      const hOk = headers === undefined || headers.check(h);
      const bOk = body === undefined || body.check(b);
      if (pOk && qOk && hOk && bOk) return { ok: true, value: { path: p, query: q, headers: h, body: b } };
      // ajv keeps each function's errors until its next call; nothing ran in between.
      let invalidParams: InvalidParam[] = [];
      if (!pOk) invalidParams = invalidParams.concat(path!.errors());
      if (!qOk) invalidParams = invalidParams.concat(query!.errors());
      if (!hOk) invalidParams = invalidParams.concat(headers!.errors());
      if (!bOk) invalidParams = invalidParams.concat(body!.errors());
      if (invalidParams.length > maxInvalidParams) invalidParams.length = maxInvalidParams;
      return { ok: false, invalidParams };
    },
  };
}

interface CompiledText {
  readonly schema: JsonSchema;
  prepare(raw: Readonly<Record<string, unknown>>): Record<string, unknown>;
  check(value: unknown): boolean;
  errors(): InvalidParam[];
}

/** The validator of path, query or header fields; `undefined` when the coordinate declares none. */
function compileText(fields: readonly FieldSpec[], where: Coordinate, mapLimit: number): CompiledText | undefined {
  if (fields.length === 0) return undefined;
  const isHeader = where === 'header';
  // Header names are declared in any casing and looked up lower-cased (RFC 9110 §5.1).
  const declared: readonly FieldSpec[] = isHeader ? fields.map((f) => ({ ...f, name: f.name.toLowerCase() })) : fields;
  const root: ObjectTypeSpec = { kind: 'object', fields: declared };
  const schema = toJsonSchema(root, { forValidator: true });
  const validate: ValidateFunction = sharedAjv().compile(schema);

  const keys = declared.map((f) => f.name);
  const parsers: TextParser[] = declared.map((f) => textParser(f, isHeader));
  // When every declared field is plain text without a default, nothing is converted or injected:
  // the incoming object is validated and passed on as it is (no allocation on the hot path).
  const copyFree = declared.every((f) => isTextIdentity(f.type) && !f.hasDefault);

  const prepare = copyFree
    ? (raw: Readonly<Record<string, unknown>>) => raw as Record<string, unknown>
    : (raw: Readonly<Record<string, unknown>>) => {
        const out: Record<string, unknown> = {};
        for (const key in raw) if (key !== '__proto__') out[key] = raw[key];
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i]!;
          const v = raw[key];
          if (v !== undefined) out[key] = parsers[i]!(v as TextValue);
        }
        return out;
      };

  return {
    schema,
    prepare,
    check: (value) => validate(value) as boolean,
    errors: () => mapErrors(validate.errors ?? [], where, root, mapLimit),
  };
}

interface CompiledBody {
  readonly schema: JsonSchema;
  check(value: unknown): boolean;
  errors(): InvalidParam[];
}

function compileBody(type: ObjectTypeSpec, mapLimit: number): CompiledBody {
  const schema = toValidatorSchema(type);
  const validate: ValidateFunction = sharedAjv().compile(schema);
  return {
    schema,
    check: (value) => validate(value) as boolean,
    errors: () => mapErrors(validate.errors ?? [], 'body', type, mapLimit),
  };
}
