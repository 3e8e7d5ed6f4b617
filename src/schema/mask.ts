/**
 * Output masks: a stream step's `schema` (SPEC.md §4.3, "schema model used to mask fields on
 * output") keeps only the fields the type declares, through nested objects, lists and maps.
 * Compiled once at boot into one closure per type, so an item costs a walk of its declared fields.
 *
 * Masking is not validation: a value whose shape differs from the declared one (null where an
 * object is declared, a string where a list is) passes through unchanged, and declared fields are
 * not checked against their types. A declared field the value lacks stays absent.
 */
import type { ObjectTypeSpec, TypeSpec } from './field.js';

export type Mask = (value: unknown) => unknown;

/** `(value) => value` with only the declared fields kept; a type with no object inside is the identity. */
export function compileMask(spec: TypeSpec): Mask {
  return compile(spec, new Map()) ?? identity;
}

function identity(value: unknown): unknown {
  return value;
}

/** undefined: the type keeps every value as it is (scalars, `any`, lists and maps of them). */
function compile(spec: TypeSpec, objects: Map<ObjectTypeSpec, ObjectEntry>): Mask | undefined {
  switch (spec.kind) {
    case 'object':
      return objectMask(spec, objects);
    case 'list': {
      const item = compile(spec.items, objects);
      return item && ((value) => (Array.isArray(value) ? value.map(item) : value));
    }
    case 'map': {
      const entry = compile(spec.values, objects);
      return entry && ((value) => (isPlainObject(value) ? mapValues(value, entry) : value));
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
function objectMask(spec: ObjectTypeSpec, objects: Map<ObjectTypeSpec, ObjectEntry>): Mask {
  const known = objects.get(spec);
  if (known) {
    known.used = true;
    return known.mask;
  }
  let compiled: Mask = identity;
  const entry: ObjectEntry = { mask: (value) => compiled(value), used: false };
  objects.set(spec, entry);
  const names = spec.fields.map((f) => f.name);
  const inner = spec.fields.map((f) => compile(f.type, objects));
  compiled = (value) => {
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      if (!Object.hasOwn(value, name)) continue;
      const field = inner[i];
      setField(out, name, field ? field(value[name]) : value[name]);
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

function mapValues(value: Record<string, unknown>, entry: Mask): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setField(out, key, entry(value[key]));
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
