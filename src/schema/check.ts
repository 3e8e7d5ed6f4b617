/**
 * Boot checks of field specs: what ajv would refuse (or, worse, accept and never check) is found here
 * first and said in the manifest's words, with the field's range, so src/model can turn each issue into
 * a Diagnostic. `compileRequestValidator` runs these too and refuses to compile a spec with issues.
 */
import type { Range } from '../diag/range.js';
import type { Coordinate, FieldSpec, ObjectTypeSpec, RequestSpec, TypeSpec } from './field.js';
import { isKnownFormat, FORMAT_NAMES } from './formats.js';
import { toValidatorSchema } from './json-schema.js';
import { sharedAjv } from './ajv.js';

export interface SchemaIssue {
  /** Where the field sits: `query.limit`, `body.address.city`, `schema user_create.age`. */
  readonly field: string;
  readonly message: string;
  readonly range?: Range;
}

/**
 * Names that `Object.prototype` already answers (`constructor`, `toString`, `__proto__`, ...). ajv and
 * the steps read fields as `obj[name]`, so a missing field of such a name would look present and its
 * default would never be injected. Refusing them at boot is cheaper and clearer than guarding every
 * read at request time.
 */
export function isReservedFieldName(name: string): boolean {
  return name === '__proto__' || Object.prototype.hasOwnProperty.call(Object.prototype, name);
}

export function checkRequestSpec(spec: RequestSpec): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  checkTextFields(spec.path, 'path', issues);
  checkTextFields(spec.query, 'query', issues);
  checkTextFields(spec.headers, 'header', issues);
  if (spec.body !== undefined) checkObject(spec.body, 'body', issues, new Set());
  return issues;
}

/** Checks a named or inline object (a `schema "<name>"` block) on its own. */
export function checkObjectType(type: ObjectTypeSpec, where = type.name !== undefined ? `schema ${type.name}` : 'body'): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  checkObject(type, where, issues, new Set());
  return issues;
}

function checkTextFields(fields: readonly FieldSpec[], where: Coordinate, issues: SchemaIssue[]): void {
  const seen = new Set<string>();
  for (const field of fields) {
    const at = `${where}.${field.name}`;
    const key = where === 'header' ? field.name.toLowerCase() : field.name;
    if (seen.has(key)) issue(issues, at, `${where} parameter "${field.name}" is declared twice`, field);
    seen.add(key);
    const t = field.type;
    const scalar = isScalar(t);
    const listOfScalars = t.kind === 'list' && isScalar(t.items);
    if (!(scalar || (listOfScalars && where !== 'path'))) {
      issue(
        issues,
        at,
        `a ${where} parameter arrives as text and must be a scalar${where === 'path' ? '' : ' or a list of scalars'}, not ${typeName(t)}`,
        field,
      );
      continue;
    }
    checkField(field, at, issues, new Set());
  }
}

function checkObject(type: ObjectTypeSpec, at: string, issues: SchemaIssue[], visiting: Set<ObjectTypeSpec>): void {
  if (visiting.has(type)) return;
  visiting.add(type);
  const seen = new Set<string>();
  for (const field of type.fields) {
    const fieldAt = `${at}.${field.name}`;
    if (seen.has(field.name)) issue(issues, fieldAt, `field "${field.name}" is declared twice`, field);
    seen.add(field.name);
    checkField(field, fieldAt, issues, visiting);
  }
  visiting.delete(type);
}

function checkField(field: FieldSpec, at: string, issues: SchemaIssue[], visiting: Set<ObjectTypeSpec>): void {
  if (isReservedFieldName(field.name)) {
    issue(issues, at, `"${field.name}" cannot be a field name: every JavaScript object already has it`, field);
  }
  const leaf = innermost(field.type);
  const kind = leaf.kind;
  const stringy = kind === 'string';
  const numeric = kind === 'integer' || kind === 'number';
  const applies = (attr: string, ok: boolean, what: string): void => {
    if (!ok) issue(issues, at, `\`${attr}\` applies to ${what} fields, not to ${typeName(field.type)}`, field);
  };
  if (field.enum !== undefined) {
    applies('enum', stringy || numeric, 'string, integer and number');
    if (field.enum.length === 0) issue(issues, at, '`enum` lists no value', field);
    for (const v of field.enum) {
      const fits = stringy ? typeof v === 'string' : kind === 'integer' ? Number.isInteger(v) : typeof v === 'number';
      if ((stringy || numeric) && !fits) issue(issues, at, `enum value ${JSON.stringify(v)} is not of type ${kind}`, field);
    }
  }
  if (field.format !== undefined) {
    applies('format', stringy, 'string');
    if (!isKnownFormat(field.format)) {
      issue(issues, at, `unknown format "${field.format}"; the formats are ${FORMAT_NAMES.join(', ')}`, field);
    }
  }
  if (field.pattern !== undefined) {
    applies('pattern', stringy, 'string');
    try {
      new RegExp(field.pattern, 'u');
    } catch (e) {
      issue(issues, at, `\`pattern\` is not a valid regular expression: ${(e as Error).message}`, field);
    }
  }
  if (field.minLength !== undefined) applies('min_length', stringy, 'string');
  if (field.maxLength !== undefined) applies('max_length', stringy, 'string');
  if (field.min !== undefined) applies('min', numeric, 'integer and number');
  if (field.max !== undefined) applies('max', numeric, 'integer and number');
  const isList = field.type.kind === 'list';
  if (field.minItems !== undefined) applies('min_items', isList, 'list');
  if (field.maxItems !== undefined) applies('max_items', isList, 'list');
  if (field.uniqueItems === true) applies('unique_items', isList, 'list');
  for (const [attr, v] of [
    ['min_length', field.minLength],
    ['max_length', field.maxLength],
    ['min_items', field.minItems],
    ['max_items', field.maxItems],
  ] as const) {
    if (v !== undefined && !(Number.isInteger(v) && v >= 0)) issue(issues, at, `\`${attr}\` must be a whole number >= 0`, field);
  }
  bound(issues, at, field, 'min_length', field.minLength, 'max_length', field.maxLength);
  bound(issues, at, field, 'min', field.min, 'max', field.max);
  bound(issues, at, field, 'min_items', field.minItems, 'max_items', field.maxItems);

  // Nested objects: their fields are checked like the body's.
  forEachObject(field.type, (o) => checkObject(o, at, issues, visiting));

  // A default is injected and then validated on every request that omits the field: an invalid
  // default would turn each such request into a 422, so it is refused here.
  if (field.hasDefault && issues.every((i) => !i.field.startsWith(at))) {
    try {
      // Wrapped as the only field of an object so a recursive schema compiles too ($defs).
      const probe: FieldSpec = { ...field, name: 'v', required: true };
      const validate = sharedAjv().compile(toValidatorSchema({ kind: 'object', fields: [probe] }));
      if (!validate({ v: structuredClone(field.default) })) {
        issue(issues, at, `the default ${JSON.stringify(field.default)} does not satisfy the field's own constraints`, field);
      }
    } catch (e) {
      // Defaults are completed with the defaults of their own fields: a schema whose defaulted field
      // leads back to the schema itself makes an endless value (and would overflow on every request).
      const endless = e instanceof RangeError;
      issue(
        issues,
        at,
        endless
          ? 'the default never ends: completing it with the defaults of its schema leads back to the same schema'
          : `cannot compile the field: ${(e as Error).message}`,
        field,
      );
    }
  }
}

function bound(issues: SchemaIssue[], at: string, field: FieldSpec, loName: string, lo: number | undefined, hiName: string, hi: number | undefined): void {
  if (lo !== undefined && hi !== undefined && lo > hi) issue(issues, at, `\`${loName}\` (${lo}) is greater than \`${hiName}\` (${hi})`, field);
}

function issue(issues: SchemaIssue[], field: string, message: string, spec: FieldSpec): void {
  issues.push(spec.range !== undefined ? { field, message, range: spec.range } : { field, message });
}

function isScalar(t: TypeSpec): boolean {
  return t.kind === 'string' || t.kind === 'integer' || t.kind === 'number' || t.kind === 'boolean' || t.kind === 'any';
}

function innermost(t: TypeSpec): TypeSpec {
  return t.kind === 'list' ? innermost(t.items) : t.kind === 'map' ? innermost(t.values) : t;
}

function forEachObject(t: TypeSpec, fn: (o: ObjectTypeSpec) => void): void {
  if (t.kind === 'object') fn(t);
  else if (t.kind === 'list') forEachObject(t.items, fn);
  else if (t.kind === 'map') forEachObject(t.values, fn);
}

/** A type as the manifest writes it: `list(map(string))`, `schema user_create`. */
export function typeName(t: TypeSpec): string {
  switch (t.kind) {
    case 'list':
      return `list(${typeName(t.items)})`;
    case 'map':
      return `map(${typeName(t.values)})`;
    case 'object':
      return t.name !== undefined ? `schema ${t.name}` : 'object';
    default:
      return t.kind;
  }
}

/** Thrown by compileRequestValidator when the spec has issues; carries all of them. */
export class SchemaError extends Error {
  constructor(readonly issues: readonly SchemaIssue[]) {
    super(issues.map((i) => `${i.field}: ${i.message}`).join('\n'));
    this.name = 'SchemaError';
  }
}
