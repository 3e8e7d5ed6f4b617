/**
 * Output masks: a stream step's `schema` (SPEC.md §4.3) keeps only the fields the type declares,
 * through nested objects, lists and maps, compiled at boot into one closure per type. A `respond`
 * step's `schema` adds `requireFields`: a missing required field throws MissingRequiredField (the
 * answer would contradict its contract), where a stream item already under way keeps it absent.
 * Masking is not validation: a value of another shape passes through unchanged.
 */
import type { ObjectTypeSpec, TypeSpec } from './field.js';

export type Mask = (value: unknown) => unknown;

export interface MaskOptions {
  /** A required field the value lacks throws MissingRequiredField rather than staying absent. */
  readonly requireFields?: boolean;
}

/**
 * A declared required field absent from a masked value. `path` locates it from the top of the value
 * (`[3].author.email`), filled in as the error leaves each level; `schema` names the object declaring it.
 */
export class MissingRequiredField extends Error {
  override readonly name = 'MissingRequiredField';
  readonly path: (string | number)[];
  constructor(
    readonly field: string,
    readonly schema: string | undefined,
  ) {
    super(`the required field "${field}"${schema === undefined ? '' : ` of schema ${schema}`} is missing`);
    this.path = [field];
  }

  /** `[3].author.email`: where the field is missing, from the top of the value. */
  where(): string {
    return this.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
  }
}

/** `(value) => value` with only the declared fields kept; a type with no object inside is the identity. */
export function compileMask(spec: TypeSpec, options: MaskOptions = {}): Mask {
  return compile(spec, new Map(), options.requireFields === true) ?? identity;
}

function identity(value: unknown): unknown {
  return value;
}

/** undefined: the type keeps every value as it is (scalars, `any`, lists and maps of them). */
function compile(spec: TypeSpec, objects: Map<ObjectTypeSpec, ObjectEntry>, require: boolean): Mask | undefined {
  switch (spec.kind) {
    case 'object':
      return objectMask(spec, objects, require);
    case 'list': {
      const item = compile(spec.items, objects, require);
      if (!item) return undefined;
      const each: (value: unknown, index: number) => unknown = require ? (v, index) => located(item, v, index) : item;
      return (value) => (Array.isArray(value) ? value.map(each) : value);
    }
    case 'map': {
      const entry = compile(spec.values, objects, require);
      if (!entry) return undefined;
      const each: (value: unknown, key: string) => unknown = require ? (v, key) => located(entry, v, key) : entry;
      return (value) => (isPlainObject(value) ? mapValues(value, each) : value);
    }
    default:
      return undefined;
  }
}

/**
 * A schema can contain itself (`children = list(schema.node)`): each object is compiled once, and a
 * use met while it is being compiled calls it through an indirection (only then: the others call
 * the compiled mask directly).
 */
function objectMask(spec: ObjectTypeSpec, objects: Map<ObjectTypeSpec, ObjectEntry>, require: boolean): Mask {
  const known = objects.get(spec);
  if (known) {
    known.used = true;
    return known.mask;
  }
  let compiled: Mask = identity;
  const entry: ObjectEntry = { mask: (value) => compiled(value), used: false };
  objects.set(spec, entry);
  const names = spec.fields.map((f) => f.name);
  const required = spec.fields.map((f) => require && f.required);
  const inner = spec.fields.map((f) => compile(f.type, objects, require));
  compiled = (value) => {
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      if (!Object.hasOwn(value, name)) {
        if (required[i]) throw new MissingRequiredField(name, spec.name);
        continue;
      }
      const field = inner[i];
      setField(out, name, field ? (require ? located(field, value[name], name) : field(value[name])) : value[name]);
    }
    return out;
  };
  if (entry.used) return entry.mask;
  entry.mask = compiled;
  return compiled;
}

interface ObjectEntry {
  mask: Mask;
  /** Asked for while (or after) being compiled: a recursive use keeps the indirection. */
  used: boolean;
}

/** `mask(value)`, a MissingRequiredField inside it located under `segment` (a field name, a list index). */
function located(mask: Mask, value: unknown, segment: string | number): unknown {
  try {
    return mask(value);
  } catch (error) {
    if (error instanceof MissingRequiredField) error.path.unshift(segment);
    throw error;
  }
}

function mapValues(value: Record<string, unknown>, entry: (value: unknown, key: string) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setField(out, key, entry(value[key], key));
  return out;
}

/** `out[name] = v`, except that a `__proto__` key becomes an own field instead of replacing the prototype. */
function setField(out: Record<string, unknown>, name: string, v: unknown): void {
  if (name === '__proto__') Object.defineProperty(out, name, { value: v, enumerable: true, writable: true, configurable: true });
  else out[name] = v;
}

/**
 * Objects built from data (parsed JSON, database rows): a Date, a Buffer or a Map is a value of its
 * own, not a record with fields, and passes through.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
