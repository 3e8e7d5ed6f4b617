/**
 * One field declaration -> FieldSpec. The same attribute table (SPEC.md §2.2) serves every form:
 * `field "<n>" { ... }` blocks (schemas, endpoint-dialect request), `path "<n>" { ... }` /
 * `header "<n>"` / `query "<n>"` blocks (route dialect), and `name = { type = ..., ... }` object
 * items in a route-dialect `body { }`. Constraints are checked against the field's type here, so a
 * `min_length` on an integer is a boot error, not a silently ignored keyword.
 */
import type { Attribute, Body, Expression, ObjectCons } from '../hcl/index.js';
import { type Range, didYouMean } from '../diag/index.js';
import { compileRegex, RegexError } from '../regex/index.js';
import { type FieldSpec, type TypeSpec, FORMAT_NAMES, isKnownFormat, typeName } from '../schema/index.js';
import { decodeBody, type BodySchema } from './body.js';
import type { DecodeScope } from './scope.js';
import { decodeType, type SchemaResolver } from './type-expr.js';
import { invalidValue, readBool, readInt, readNumber, readStatic, readString, typeError } from './values.js';

export const FIELD_SCHEMA: BodySchema = {
  attributes: {
    // Checked by decodeField itself, pointing at the field's own declaration.
    type: {},
    required: {},
    default: {},
    description: {},
    enum: {},
    format: {},
    pattern: {},
    min_length: {},
    max_length: {},
    min: {},
    max: {},
    min_items: {},
    max_items: {},
    unique_items: {},
    nullable: {},
  },
};

export interface FieldOptions {
  /** Path parameters are always required; `required` defaults to true for them. */
  readonly requiredByDefault?: boolean;
}

/** Decodes the attributes of a field body (block or object constructor). */
export function decodeField(
  name: string,
  body: Body,
  range: Range,
  scope: DecodeScope,
  schemas: SchemaResolver,
  options: FieldOptions = {},
): FieldSpec | undefined {
  const errorsBefore = errorCount(scope);
  const { attrs } = decodeBody(body, FIELD_SCHEMA, scope);
  const typeAttr = attrs.get('type');
  if (!typeAttr) {
    scope.error('Missing required argument', range, { detail: `The argument "type" is required, but no definition was found.` });
    return undefined;
  }
  const type = decodeType(typeAttr.expr, scope, schemas);
  if (!type) return undefined;

  const field: Mutable<FieldSpec> = {
    name,
    type,
    required: (attrs.has('required') ? readBool(attrs.get('required'), scope) : undefined) ?? options.requiredByDefault ?? false,
    hasDefault: false,
    range,
  };
  const description = readString(attrs.get('description'), scope);
  if (description !== undefined) field.description = description;
  if (readBool(attrs.get('nullable'), scope) === true) field.nullable = true;

  // Scalar constraints apply to the scalar inside lists and maps too (`list(string)` with
  // `min_length` bounds each item), as src/schema compiles them; item counts apply to lists only.
  const kind = innermost(type).kind;
  const isString = kind === 'string';
  const isNumeric = kind === 'integer' || kind === 'number';
  const isList = type.kind === 'list';
  const applies = (attr: string, ok: boolean, what: string): Attribute | undefined => {
    const a = attrs.get(attr);
    if (a && !ok) {
      scope.error('Constraint does not apply', a.nameRange, {
        detail: `"${attr}" applies to ${what} fields; "${name}" is ${typeName(type)}.`,
      });
      return undefined;
    }
    return a;
  };

  const enumAttr = applies('enum', isString || isNumeric, 'string, integer and number');
  if (enumAttr) {
    const v = readStatic(enumAttr, scope);
    if (v.ok) {
      // Integers as src/schema validates them: a value outside ±(2^53-1) is refused in every request.
      const want = isString ? 'strings' : kind === 'integer' ? 'whole numbers within ±(2^53-1)' : 'finite numbers';
      const ok = (x: unknown): boolean => (isString ? typeof x === 'string' : kind === 'integer' ? Number.isSafeInteger(x) : Number.isFinite(x));
      if (!Array.isArray(v.value) || v.value.length === 0 || !v.value.every(ok)) {
        typeError(enumAttr, scope, `a non-empty list of ${want}`);
      } else {
        field.enum = v.value as (string | number)[];
        const dup = field.enum.find((x, i) => field.enum!.indexOf(x) !== i);
        if (dup !== undefined) {
          scope.warning('Duplicate enum value', enumAttr.expr.range, { detail: `${JSON.stringify(dup)} is listed more than once in "enum".` });
        }
      }
    }
  }
  const formatAttr = applies('format', isString, 'string');
  if (formatAttr) {
    const f = readString(formatAttr, scope);
    if (f !== undefined) {
      if (isKnownFormat(f)) field.format = f;
      else invalidValue(formatAttr, scope, `Unknown format "${f}"; the formats are ${FORMAT_NAMES.join(', ')}.`, didYouMean(f, FORMAT_NAMES));
    }
  }
  const patternAttr = applies('pattern', isString, 'string');
  if (patternAttr) {
    const p = readString(patternAttr, scope);
    if (p !== undefined) {
      // The pattern runs on src/regex (linear time): one it cannot compile, whether its syntax is wrong
      // or RE2 cannot express it (lookaround, back-references), is refused here, with the reason.
      try {
        compileRegex(p);
        field.pattern = p;
      } catch (e) {
        if (!(e instanceof RegexError)) throw e;
        invalidValue(patternAttr, scope, `Invalid regular expression: ${e.reason}.`);
      }
    }
  }
  const count = { min: 0 };
  setIf(field, 'minLength', readInt(applies('min_length', isString, 'string'), scope, count));
  setIf(field, 'maxLength', readInt(applies('max_length', isString, 'string'), scope, count));
  setIf(field, 'min', readNumber(applies('min', isNumeric, 'integer and number'), scope));
  setIf(field, 'max', readNumber(applies('max', isNumeric, 'integer and number'), scope));
  setIf(field, 'minItems', readInt(applies('min_items', isList, 'list'), scope, count));
  setIf(field, 'maxItems', readInt(applies('max_items', isList, 'list'), scope, count));
  setIf(field, 'uniqueItems', readBool(applies('unique_items', isList, 'list'), scope));
  checkOrder(attrs, scope, 'min_length', 'max_length', field.minLength, field.maxLength);
  checkOrder(attrs, scope, 'min', 'max', field.min, field.max);
  checkOrder(attrs, scope, 'min_items', 'max_items', field.minItems, field.maxItems);

  const defaultAttr = attrs.get('default');
  if (defaultAttr) {
    const v = readStatic(defaultAttr, scope);
    if (v.ok) {
      if (v.value !== null && !fits(v.value, type)) {
        typeError(
          defaultAttr,
          scope,
          `a value of type ${typeName(type)}${type.kind === 'integer' && typeof v.value === 'number' ? ' (integers within ±(2^53-1))' : ''}`,
        );
      } else {
        field.hasDefault = true;
        field.default = v.value;
        if (field.required) {
          scope.warning('Default on a required field', defaultAttr.nameRange, {
            detail: `"${name}" is required, so its default is never used.`,
          });
        }
      }
    }
  }
  fieldSites.set(range, { path: scope.path, attrs, reported: errorCount(scope) > errorsBefore });
  return field;
}

function errorCount(scope: DecodeScope): number {
  let n = 0;
  for (const d of scope.diags.items) if (d.severity === 'error') n++;
  return n;
}

function innermost(t: TypeSpec): TypeSpec {
  return t.kind === 'list' ? innermost(t.items) : t.kind === 'map' ? innermost(t.values) : t;
}

/** Where a decoded field was declared: what src/model needs to report src/schema's issues about it. */
export interface FieldSite {
  /** The field's block path (`endpoint "GET /x" > request > query > field "n"`). */
  readonly path: readonly string[];
  /** The field's attributes, so an issue points at the offending one (`default`, `enum`...). */
  readonly attrs: ReadonlyMap<string, Attribute>;
  /**
   * This decoder already reported an error for the field: src/schema's own field checks (run by the
   * model) skip it, so one mistake is not reported twice in two wordings.
   */
  readonly reported: boolean;
}

/** Field declarations by the range FieldSpec.range holds (the field's name). */
export const fieldSites = new WeakMap<Range, FieldSite>();

/** `name = { type = string, ... }` items of a route-dialect body, as a synthetic body of attributes. */
export function objectAsBody(obj: ObjectCons, scope: DecodeScope): Body | undefined {
  const items: Attribute[] = [];
  for (const item of obj.items) {
    const key = staticKey(item.key);
    if (key === undefined) {
      scope.error('Invalid field attribute', item.key.range, { detail: 'Field attributes are written as name = value.' });
      continue;
    }
    items.push({ kind: 'Attribute', name: key, expr: item.value, range: item.range, nameRange: item.key.range });
  }
  return { kind: 'Body', items, range: obj.range };
}

/** The key of an object item when it is a bare name or a plain quoted string. */
export function staticKey(key: Expression): string | undefined {
  if (key.kind === 'Literal' && typeof key.value === 'string') return key.value;
  if (key.kind === 'ScopeTraversal' && key.steps.length === 0) return key.root;
  if (key.kind === 'Template' && key.parts.length === 1 && key.parts[0]!.kind === 'TemplateLiteral') return key.parts[0]!.value;
  if (key.kind === 'Template' && key.parts.length === 0) return '';
  return undefined;
}

/** Whether a default value has the declared type (shallow for lists and maps' elements). */
function fits(value: unknown, type: TypeSpec): boolean {
  switch (type.kind) {
    case 'any':
      return true;
    case 'string':
      return typeof value === 'string';
    case 'integer':
      // As src/schema validates integers: outside ±(2^53-1) a value is refused in every request.
      return Number.isSafeInteger(value);
    case 'number':
      return Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'list':
      return Array.isArray(value) && value.every((v) => fits(v, type.items));
    case 'map':
      return isPlainObject(value) && Object.values(value).every((v) => fits(v, type.values));
    case 'object':
      return isPlainObject(value);
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkOrder(attrs: ReadonlyMap<string, Attribute>, scope: DecodeScope, lo: string, hi: string, min: number | undefined, max: number | undefined): void {
  if (min !== undefined && max !== undefined && min > max) {
    scope.error('Invalid value', attrs.get(hi)!.expr.range, { detail: `"${hi}" (${max}) is less than "${lo}" (${min}).` });
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function setIf<K extends keyof FieldSpec>(field: Mutable<FieldSpec>, key: K, value: FieldSpec[K] | undefined): void {
  if (value !== undefined) field[key] = value;
}
