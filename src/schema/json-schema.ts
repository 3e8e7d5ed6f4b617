/**
 * Field specs -> JSON Schema 2020-12: the one translation used by the request validators (ajv) and
 * the OpenAPI 3.1 compiler, so the document and the server never disagree about a constraint.
 *
 * Where SPEC.md §2.2 is silent:
 * - Objects allow undeclared extra properties (forward compatibility); they cannot shadow a declared
 *   field (`__proto__` refused by json-body.ts, `Object.prototype` names by check.ts).
 * - Scalar constraints on a `list(T)` or `map(T)` apply to its innermost scalars (`tags` with
 *   `max_length = 20`); item counts stay on the outer list.
 * - `default = null` admits null (`type: [T, "null"]`): the injected default is validated too.
 */
import type { FieldSpec, ObjectTypeSpec, TypeSpec } from './field.js';
import { UNIQUE_ITEMS_KEYWORD } from './unique.js';

/** A JSON Schema 2020-12 document or subschema, as a plain JSON value. */
export type JsonSchema = { [keyword: string]: unknown };

export interface JsonSchemaOptions {
  /**
   * Called for every named object (a `schema "<name>"` block) other than the root: a string result is
   * emitted as `{ "$ref": <result> }` (OpenAPI passes `#/components/schemas/<name>`), `undefined`
   * inlines the object. Without it every object is inlined, and a schema that contains itself throws.
   */
  readonly ref?: (object: ObjectTypeSpec, expanding: readonly ObjectTypeSpec[]) => string | undefined;
  /**
   * The schema is for this process' ajv, never for the published document. Then:
   * - every integer is bounded to ±(2^53−1): a larger integer cannot be held exactly by a JS number,
   *   so `9007199254740993` would silently become another value; errors.ts reports the bound as
   *   `must be a safe integer`;
   * - `unique_items` on a list of objects, lists or `any` uses the linear keyword of unique.ts
   *   instead of ajv's pairwise comparison.
   */
  readonly forValidator?: boolean;
}

export const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Scalar constraints that a list or map hands down to its elements. */
interface ScalarConstraints {
  enum?: readonly (string | number)[] | undefined;
  format?: string | undefined;
  pattern?: string | undefined;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  min?: number | undefined;
  max?: number | undefined;
}

export function isFieldSpec(input: TypeSpec | FieldSpec): input is FieldSpec {
  return 'type' in input && typeof (input as FieldSpec).type === 'object' && 'required' in input;
}

/**
 * The JSON Schema of a type, or of a field (its type plus every attribute of SPEC.md §2.2). A field's
 * `required` is not part of its own schema: it lands in the enclosing object's `required` list (and
 * OpenAPI puts it on the parameter).
 */
export function toJsonSchema(input: TypeSpec | FieldSpec, options: JsonSchemaOptions = {}): JsonSchema {
  const ctx: Ctx = { options, stack: [] };
  return isFieldSpec(input) ? fieldSchema(input, ctx) : typeSchema(input, undefined, false, ctx, true);
}

interface Ctx {
  readonly options: JsonSchemaOptions;
  /** Objects being expanded, to detect a schema that contains itself. */
  readonly stack: ObjectTypeSpec[];
  /**
   * toValidatorSchema's own hook, used instead of `options.ref`: it also sees whether the occurrence is
   * nullable, and its `$ref` then points at a definition that is itself nullable (no `anyOf`, which
   * would stop ajv from injecting the defaults inside and add its own errors to the 422).
   */
  readonly defRef?: (object: ObjectTypeSpec, nullable: boolean, expanding: readonly ObjectTypeSpec[]) => string | undefined;
}

function fieldSchema(field: FieldSpec, ctx: Ctx): JsonSchema {
  const nullable = field.nullable === true || (field.hasDefault && field.default === null);
  const schema: JsonSchema = {};
  // The field's own description wins over the description of the schema it uses.
  if (field.description !== undefined) schema.description = field.description;
  const typed = typeSchema(field.type, field, nullable, ctx, false);
  for (const key in typed) if (!(key in schema)) schema[key] = typed[key];
  if (field.minItems !== undefined) schema.minItems = field.minItems;
  if (field.maxItems !== undefined) schema.maxItems = field.maxItems;
  if (field.uniqueItems === true) {
    const linear = ctx.options.forValidator === true && field.type.kind === 'list' && !hasScalarType(field.type.items);
    schema[linear ? UNIQUE_ITEMS_KEYWORD : 'uniqueItems'] = true;
  }
  if (field.hasDefault) schema.default = field.default ?? null;
  return schema;
}

/**
 * `constraints` are the scalar attributes still to place: they go on the first scalar reached, through
 * any list/map nesting.
 */
function typeSchema(type: TypeSpec, constraints: ScalarConstraints | undefined, nullable: boolean, ctx: Ctx, root: boolean): JsonSchema {
  switch (type.kind) {
    case 'any': {
      const schema: JsonSchema = {};
      if (constraints !== undefined) addScalarConstraints(schema, constraints, nullable);
      return schema;
    }
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean': {
      const schema: JsonSchema = { type: nullable ? [type.kind, 'null'] : type.kind };
      if (constraints !== undefined) addScalarConstraints(schema, constraints, nullable);
      if (type.kind === 'integer' && ctx.options.forValidator === true) clampSafe(schema);
      return schema;
    }
    case 'list':
      return {
        type: nullable ? ['array', 'null'] : 'array',
        items: typeSchema(type.items, constraints, false, ctx, false),
      };
    case 'map':
      return {
        type: nullable ? ['object', 'null'] : 'object',
        additionalProperties: typeSchema(type.values, constraints, false, ctx, false),
      };
    case 'object': {
      if (!root && ctx.defRef !== undefined) {
        const ref = ctx.defRef(type, nullable, ctx.stack);
        if (ref !== undefined) return { $ref: ref };
      } else if (!root && type.name !== undefined && ctx.options.ref !== undefined) {
        const ref = ctx.options.ref(type, ctx.stack);
        if (ref !== undefined) return nullable ? { anyOf: [{ $ref: ref }, { type: 'null' }] } : { $ref: ref };
      }
      return objectSchema(type, nullable, ctx);
    }
  }
}

function objectSchema(type: ObjectTypeSpec, nullable: boolean, ctx: Ctx): JsonSchema {
  if (ctx.stack.includes(type)) {
    throw new Error(`schema "${type.name ?? '(inline)'}" contains itself: it can only be emitted with a $ref`);
  }
  ctx.stack.push(type);
  const properties: JsonSchema = {};
  const required: string[] = [];
  for (const field of type.fields) {
    properties[field.name] = fieldSchema(field, ctx);
    if (field.required) required.push(field.name);
  }
  ctx.stack.pop();
  const schema: JsonSchema = {};
  if (type.description !== undefined) schema.description = type.description;
  schema.type = nullable ? ['object', 'null'] : 'object';
  schema.properties = properties;
  if (required.length > 0) schema.required = required;
  return schema;
}

function addScalarConstraints(schema: JsonSchema, c: ScalarConstraints, nullable: boolean): void {
  if (c.enum !== undefined) schema.enum = nullable ? [...c.enum, null] : [...c.enum];
  if (c.format !== undefined) schema.format = c.format;
  if (c.pattern !== undefined) schema.pattern = c.pattern;
  if (c.minLength !== undefined) schema.minLength = c.minLength;
  if (c.maxLength !== undefined) schema.maxLength = c.maxLength;
  if (c.min !== undefined) schema.minimum = c.min;
  if (c.max !== undefined) schema.maximum = c.max;
}

/** Items ajv can check for uniqueness with a hash (it needs a scalar `type`). */
function hasScalarType(type: TypeSpec): boolean {
  return type.kind === 'string' || type.kind === 'integer' || type.kind === 'number' || type.kind === 'boolean';
}

function clampSafe(schema: JsonSchema): void {
  const min = schema.minimum as number | undefined;
  const max = schema.maximum as number | undefined;
  if (min === undefined || min < -MAX_SAFE) schema.minimum = -MAX_SAFE;
  if (max === undefined || max > MAX_SAFE) schema.maximum = MAX_SAFE;
}

/**
 * The JSON Schema of an object type for a validator. An object used at one place is inlined (ajv's
 * defaults only work outside composite keywords); one used at several places or inside itself goes
 * to `$defs` once, since inlining grows exponentially with shared nesting (2^24 copies at 24 levels).
 * A nullable use refers to a `<name>_or_null` twin, so no `anyOf` is needed.
 */
export function toValidatorSchema(type: ObjectTypeSpec): JsonSchema {
  const sites = useSites(type);
  const names: [Map<ObjectTypeSpec, string>, Map<ObjectTypeSpec, string>] = [new Map(), new Map()];
  const used = new Set<string>();
  const queue: [ObjectTypeSpec, boolean][] = [];
  const ctx: Ctx = {
    options: { forValidator: true },
    stack: [],
    defRef(object, nullable, expanding) {
      if ((sites.get(object) ?? 0) < 2 && !expanding.includes(object)) return undefined;
      const byObject = names[nullable ? 1 : 0];
      let name = byObject.get(object);
      if (name === undefined) {
        const base = (object.name ?? 'object').replace(/[^A-Za-z0-9_.-]/g, '_') + (nullable ? '_or_null' : '');
        name = base;
        for (let i = 2; used.has(name); i++) name = `${base}_${i}`;
        used.add(name);
        byObject.set(object, name);
        queue.push([object, nullable]);
      }
      return `#/$defs/${name}`;
    },
  };
  const schema = objectSchema(type, false, ctx);
  if (queue.length > 0) {
    const defs: JsonSchema = {};
    // The queue grows while definitions are emitted (an object first met inside another definition).
    for (let i = 0; i < queue.length; i++) {
      const [object, nullable] = queue[i]!;
      defs[names[nullable ? 1 : 0].get(object)!] = objectSchema(object, nullable, ctx);
    }
    schema.$defs = defs;
  }
  return schema;
}

/**
 * How many fields use each object reachable from `root` (a field's `list(map(schema.x))` counts once
 * for `x`). Each object's fields are counted once, however many paths lead to it.
 */
function useSites(root: ObjectTypeSpec): Map<ObjectTypeSpec, number> {
  const count = new Map<ObjectTypeSpec, number>();
  const seen = new Set<ObjectTypeSpec>([root]);
  const todo = [root];
  while (todo.length > 0) {
    for (const field of todo.pop()!.fields) {
      forEachObject(field.type, (o) => {
        count.set(o, (count.get(o) ?? 0) + 1);
        if (!seen.has(o)) {
          seen.add(o);
          todo.push(o);
        }
      });
    }
  }
  return count;
}

/** Calls `fn` with the object a type is or holds through list/map nesting, if any. */
export function forEachObject(t: TypeSpec, fn: (o: ObjectTypeSpec) => void): void {
  if (t.kind === 'object') fn(t);
  else if (t.kind === 'list') forEachObject(t.items, fn);
  else if (t.kind === 'map') forEachObject(t.values, fn);
}
