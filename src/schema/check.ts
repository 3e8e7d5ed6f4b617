/**
 * Boot checks of field specs: what ajv would refuse (or, worse, accept and never check) is found here
 * first and said in the manifest's words, with the field's range, so src/model can turn each issue into
 * a Diagnostic. `compileRequestValidator` runs these too and refuses to compile a spec with issues.
 */
import type { Range } from '../diag/index.js';
import type { Coordinate, FieldSpec, ObjectTypeSpec, RequestSpec, TypeSpec } from './field.js';
import { isKnownFormat, FORMAT_NAMES } from './formats.js';
import { forEachObject, toValidatorSchema } from './json-schema.js';
import { mapErrors } from './errors.js';
import { compileRegex, RegexError } from '../regex/index.js';
import { sharedAjv } from './ajv.js';

export interface SchemaIssue {
  /**
   * Where the field sits: `query.limit`, `body.address.city`. A field of a named schema is named by its
   * schema (`schema user_create.age`) wherever the schema is used, and reported once.
   */
  readonly field: string;
  readonly message: string;
  /** An error makes the spec unusable (`compileRequestValidator` refuses it); a warning does not. */
  readonly severity: 'error' | 'warning';
  /**
   * The manifest attribute at fault (`default`, `enum`, `format`, `pattern`, `min`, `type`...);
   * absent when the field itself is (a reserved or repeated name).
   */
  readonly attribute?: string;
  /** The attribute does not apply to the field's type at all (rather than having a wrong value). */
  readonly inapplicable?: boolean;
  readonly range?: Range;
}

/**
 * Names that `Object.prototype` already answers (`constructor`, `toString`, `__proto__`, ...). ajv and
 * the steps read fields as `obj[name]`, so a missing field of such a name would look present and its
 * default would never be injected. Refusing them at boot is cheaper and clearer than guarding every
 * read at request time.
 */
export function isReservedFieldName(name: string): boolean {
  return name === '__proto__' || Object.hasOwn(Object.prototype, name);
}

export function checkRequestSpec(spec: RequestSpec): SchemaIssue[] {
  const walk = new Walk();
  walk.textFields(spec.path, 'path');
  walk.textFields(spec.query, 'query');
  walk.textFields(spec.headers, 'header');
  if (spec.body !== undefined) walk.object(spec.body, 'body', true);
  return walk.finish();
}

/** Checks a named or inline object (a `schema "<name>"` block) on its own. */
export function checkObjectType(type: ObjectTypeSpec, where = type.name !== undefined ? `schema ${type.name}` : 'body'): SchemaIssue[] {
  const walk = new Walk();
  walk.object(type, where, true);
  return walk.finish();
}

/** The checks wanted by the attributes of one field, by the field's position in the walk. */
interface Pending {
  readonly field: FieldSpec;
  readonly at: string;
  readonly order: number;
  /** The field had issues of its own (its default is then not compiled). */
  readonly broken: boolean;
  /** The objects its type holds, directly. */
  readonly objects: readonly ObjectTypeSpec[];
}

/**
 * One check of a request or a schema. Every object is checked once, however many paths lead to it (a
 * schema used by two fields of a schema used by two fields... is not checked 2^n times); a named
 * object's issues are reported at its own fields (`schema address.zip`), once.
 *
 * Defaults are checked last, once every object is known to be sound or not: a default is compiled only
 * when neither its field nor any object reachable from its type has an issue (the compile would fail
 * for the same reason, or report the same problem again).
 */
class Walk {
  private readonly issues: { issue: SchemaIssue; order: number }[] = [];
  private readonly defaults: Pending[] = [];
  /** Objects checked or being checked; `true` when the object's own fields have issues. */
  private readonly ownIssues = new Map<ObjectTypeSpec, boolean>();
  private readonly children = new Map<ObjectTypeSpec, ObjectTypeSpec[]>();
  private order = 0;

  textFields(fields: readonly FieldSpec[], where: Coordinate): void {
    const seen = new Set<string>();
    for (const field of fields) {
      const at = `${where}.${field.name}`;
      const order = this.order++;
      const before = this.issues.length;
      const key = where === 'header' ? field.name.toLowerCase() : field.name;
      if (seen.has(key)) this.add(order, at, field, `${where} parameter "${field.name}" is declared twice`);
      seen.add(key);
      const t = field.type;
      const scalar = isScalar(t);
      const listOfScalars = t.kind === 'list' && isScalar(t.items);
      if (!(scalar || (listOfScalars && where !== 'path'))) {
        this.add(
          order,
          at,
          field,
          `a ${where} parameter arrives as text and must be a scalar${where === 'path' ? '' : ' or a list of scalars'}, not ${typeName(t)}`,
          { attribute: 'type' },
        );
        continue;
      }
      this.field(field, at, order, before);
    }
  }

  object(type: ObjectTypeSpec, at: string, root = false): void {
    if (this.ownIssues.has(type)) return;
    this.ownIssues.set(type, false);
    const kids: ObjectTypeSpec[] = [];
    this.children.set(type, kids);
    const where = !root && type.name !== undefined ? `schema ${type.name}` : at;
    const seen = new Set<string>();
    for (const field of type.fields) {
      const fieldAt = `${where}.${field.name}`;
      const order = this.order++;
      const before = this.issues.length;
      if (seen.has(field.name)) this.add(order, fieldAt, field, `field "${field.name}" is declared twice`);
      seen.add(field.name);
      if (this.field(field, fieldAt, order, before)) this.ownIssues.set(type, true);
      forEachObject(field.type, (o) => {
        kids.push(o);
        this.object(o, fieldAt);
      });
    }
  }

  /** The checks of one field's own attributes; true when it has an error. */
  private field(field: FieldSpec, at: string, order: number, before: number): boolean {
    checkField(field, (message, extra) => this.add(order, at, field, message, extra));
    const broken = this.issues.slice(before).some((i) => i.issue.severity === 'error');
    if (field.hasDefault) {
      const objects: ObjectTypeSpec[] = [];
      forEachObject(field.type, (o) => objects.push(o));
      this.defaults.push({ field, at, order, broken, objects });
    }
    return broken;
  }

  finish(): SchemaIssue[] {
    const unsound = this.unsoundObjects();
    for (const d of this.defaults) {
      if (d.broken || d.objects.some((o) => unsound.has(o))) continue;
      const message = checkDefault(d.field);
      if (message !== undefined) this.add(d.order, d.at, d.field, message, { attribute: 'default' });
    }
    // Stable: a field's issues stay in the order found, fields in walk order.
    return this.issues.sort((a, b) => a.order - b.order).map((i) => i.issue);
  }

  /** Objects with issues of their own or holding (at any depth) such an object. */
  private unsoundObjects(): Set<ObjectTypeSpec> {
    const parents = new Map<ObjectTypeSpec, ObjectTypeSpec[]>();
    for (const [o, kids] of this.children) for (const k of kids) parents.set(k, [...(parents.get(k) ?? []), o]);
    const unsound = new Set<ObjectTypeSpec>();
    const todo = [...this.ownIssues].filter(([, bad]) => bad).map(([o]) => o);
    while (todo.length > 0) {
      const o = todo.pop()!;
      if (unsound.has(o)) continue;
      unsound.add(o);
      todo.push(...(parents.get(o) ?? []));
    }
    return unsound;
  }

  private add(order: number, field: string, spec: FieldSpec, message: string, extra: IssueExtra = {}): void {
    const issue: SchemaIssue = {
      field,
      message,
      severity: extra.severity ?? 'error',
      ...(extra.attribute !== undefined ? { attribute: extra.attribute } : {}),
      ...(extra.inapplicable === true ? { inapplicable: true } : {}),
      ...(spec.range !== undefined ? { range: spec.range } : {}),
    };
    this.issues.push({ issue, order });
  }
}

interface IssueExtra {
  readonly attribute?: string;
  readonly inapplicable?: boolean;
  readonly severity?: 'error' | 'warning';
}

/** The attributes of one field, on their own (nested objects and the default are the walk's). */
function checkField(field: FieldSpec, report: (message: string, extra?: IssueExtra) => void): void {
  if (isReservedFieldName(field.name)) {
    report(`"${field.name}" cannot be a field name: every JavaScript object already has it`);
  }
  const leaf = innermost(field.type);
  const kind = leaf.kind;
  const stringy = kind === 'string';
  const numeric = kind === 'integer' || kind === 'number';
  const applies = (attr: string, ok: boolean, what: string): void => {
    if (!ok) report(`\`${attr}\` applies to ${what} fields, not to ${typeName(field.type)}`, { attribute: attr, inapplicable: true });
  };
  if (field.enum !== undefined) {
    applies('enum', stringy || numeric, 'string, integer and number');
    if (field.enum.length === 0) report('`enum` lists no value', { attribute: 'enum' });
    for (const v of field.enum) {
      // Integers as the validator and the decoder accept them: within ±(2^53−1).
      const fits = stringy ? typeof v === 'string' : kind === 'integer' ? Number.isSafeInteger(v) : typeof v === 'number';
      if ((stringy || numeric) && !fits) {
        const unsafe = kind === 'integer' && Number.isInteger(v);
        report(`enum value ${JSON.stringify(v)} ${unsafe ? 'is not a safe integer (within ±(2^53-1))' : `is not of type ${kind}`}`, { attribute: 'enum' });
      }
    }
  }
  if (field.format !== undefined) {
    applies('format', stringy, 'string');
    if (!isKnownFormat(field.format)) {
      report(`unknown format "${field.format}"; the formats are ${FORMAT_NAMES.join(', ')}`, { attribute: 'format' });
    }
  }
  if (field.pattern !== undefined) {
    applies('pattern', stringy, 'string');
    try {
      compileRegex(field.pattern);
    } catch (e) {
      if (!(e instanceof RegexError)) throw e;
      report(`\`pattern\` is not a valid regular expression: ${e.reason}`, { attribute: 'pattern' });
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
    if (v !== undefined && !(Number.isInteger(v) && v >= 0)) report(`\`${attr}\` must be a whole number >= 0`, { attribute: attr });
  }
  bound(report, 'min_length', field.minLength, 'max_length', field.maxLength);
  bound(report, 'min', field.min, 'max', field.max);
  bound(report, 'min_items', field.minItems, 'max_items', field.maxItems);
}

/** At most this many failed constraints are quoted in the message of an invalid default. */
const DEFAULT_REASONS = 3;

/**
 * A default is injected and then validated on every request that omits the field: an invalid default
 * would turn each such request into a 422, so it is refused, with the reasons the 422 would give.
 * Returns the message, or undefined when the default is valid.
 */
function checkDefault(field: FieldSpec): string | undefined {
  try {
    // Wrapped as the only field of an object so a recursive schema compiles too ($defs).
    const probe: FieldSpec = { ...field, name: 'v', required: true };
    const holder: ObjectTypeSpec = { kind: 'object', fields: [probe] };
    const validate = sharedAjv().compile(toValidatorSchema(holder));
    if (validate({ v: structuredClone(field.default) })) return undefined;
    const params = mapErrors(validate.errors ?? [], 'body', holder, 100);
    const reasons = params.slice(0, DEFAULT_REASONS).map((p) => {
      // `v` is the default itself; `v[1]`, `v.city` a part of it.
      const part = p.name === 'v' ? '' : p.name.slice(1).replace(/^\./, '');
      return part === '' ? p.reason : `${part} ${p.reason}`;
    });
    if (params.length > DEFAULT_REASONS) reasons.push(`and ${params.length - DEFAULT_REASONS} more`);
    return `the default ${JSON.stringify(field.default)} does not satisfy the field's own constraints: ${reasons.join('; ')}`;
  } catch (e) {
    // Defaults are completed with the defaults of their own fields: a schema whose defaulted field
    // leads back to the schema itself makes an endless value (and would overflow on every request).
    return e instanceof RangeError
      ? 'the default never ends: completing it with the defaults of its schema leads back to the same schema'
      : `cannot compile the field: ${(e as Error).message}`;
  }
}

function bound(report: (message: string, extra?: IssueExtra) => void, loName: string, lo: number | undefined, hiName: string, hi: number | undefined): void {
  if (lo !== undefined && hi !== undefined && lo > hi) report(`\`${loName}\` (${lo}) is greater than \`${hiName}\` (${hi})`, { attribute: loName });
}

function isScalar(t: TypeSpec): boolean {
  return t.kind === 'string' || t.kind === 'integer' || t.kind === 'number' || t.kind === 'boolean' || t.kind === 'any';
}

function innermost(t: TypeSpec): TypeSpec {
  return t.kind === 'list' ? innermost(t.items) : t.kind === 'map' ? innermost(t.values) : t;
}

/**
 * A type as the manifest writes it: `list(map(string))`, `schema.user_create`, `object` for an inline
 * body. (src/manifest/type-expr.ts has the same function.)
 */
export function typeName(t: TypeSpec): string {
  switch (t.kind) {
    case 'list':
      return `list(${typeName(t.items)})`;
    case 'map':
      return `map(${typeName(t.values)})`;
    case 'object':
      return t.name ? `schema.${t.name}` : 'object';
    default:
      return t.kind;
  }
}

/** Thrown by compileRequestValidator when the spec has errors; carries all of them. */
export class SchemaError extends Error {
  constructor(readonly issues: readonly SchemaIssue[]) {
    super(issues.map((i) => `${i.field}: ${i.message}`).join('\n'));
    this.name = 'SchemaError';
  }
}
