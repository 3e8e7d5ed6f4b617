/**
 * Combining inferred schemas: a value that comes from one of several places (the two branches of a
 * conditional, the items of a tuple, two `respond` blocks with one status) has the union of their
 * schemas, written as simply as it can be so generated clients stay readable.
 */
import type { JsonSchema } from '../schema/index.js';

/** The schema that admits anything: what inference says when it cannot tell. */
export const ANY: JsonSchema = Object.freeze({}) as JsonSchema;

export function isAny(schema: JsonSchema): boolean {
  for (const key in schema) if (key !== 'description') return false;
  return true;
}

/** Keys sorted at every level: two schemas are the same when these texts are. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/**
 * The union of schemas: one schema when they agree; literals of one type become an `enum`; anything
 * that admits everything makes the union admit everything; otherwise `anyOf`, flattened and without
 * repeats, in first-seen order (so the output is deterministic).
 */
export function unionOf(schemas: readonly JsonSchema[]): JsonSchema {
  const members: JsonSchema[] = [];
  const seen = new Set<string>();
  for (const s of schemas) {
    for (const m of Array.isArray(s.anyOf) && Object.keys(s).length === 1 ? (s.anyOf as JsonSchema[]) : [s]) {
      if (isAny(m)) return ANY;
      const key = canonical(m);
      if (seen.has(key)) continue;
      seen.add(key);
      members.push(m);
    }
  }
  // A literal is one value of its type: `{type: T}` absorbs `{type: T, const: v}`.
  const bare = new Set(members.filter((m) => Object.keys(m).length === 1 && typeof m.type === 'string').map((m) => m.type));
  const kept = members.filter((m) => !(bare.has(m.type) && isLiteral(m)));
  members.length = 0;
  members.push(...kept);
  if (members.length === 0) return ANY;
  if (members.length === 1) return members[0]!;
  return asEnum(members) ?? asTypeList(members) ?? { anyOf: members };
}

/** `{type: A}`, `{type: B}` as `{type: [A, B]}`; undefined unless every member is a bare type. */
function asTypeList(members: readonly JsonSchema[]): JsonSchema | undefined {
  const types: string[] = [];
  for (const m of members) {
    if (Object.keys(m).length !== 1) return undefined;
    if (typeof m.type === 'string') types.push(m.type);
    else if (Array.isArray(m.type)) types.push(...(m.type as string[]));
    else return undefined;
  }
  return { type: [...new Set(types)] };
}

function isLiteral(m: JsonSchema): boolean {
  return Object.keys(m).length === 2 && ('const' in m || Array.isArray(m.enum));
}

/** `{type: T, const: a}`, `{type: T, const: b}`... as `{type: T, enum: [a, b]}`; undefined when they are not all such. */
function asEnum(members: readonly JsonSchema[]): JsonSchema | undefined {
  const type = members[0]!.type;
  if (typeof type !== 'string') return undefined;
  const values: unknown[] = [];
  for (const m of members) {
    if (m.type !== type || Object.keys(m).length !== 2) return undefined;
    if ('const' in m) values.push(m.const);
    else if (Array.isArray(m.enum)) values.push(...(m.enum as unknown[]));
    else return undefined;
  }
  return { type, enum: values };
}

/** The schema admits null too (an optional request value that was not sent reads as null). */
export function orNull(schema: JsonSchema): JsonSchema {
  if (isAny(schema)) return schema;
  const type = schema.type;
  if (typeof type === 'string' && schema.$ref === undefined) {
    if (type === 'null') return schema;
    const out: JsonSchema = { ...schema, type: [type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...(schema.enum as unknown[]), null];
    if ('const' in schema) return unionOf([schema, { type: 'null' }]);
    return out;
  }
  if (Array.isArray(type)) return type.includes('null') ? schema : { ...schema, type: [...type, 'null'] };
  return unionOf([schema, { type: 'null' }]);
}
