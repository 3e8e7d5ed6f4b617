/**
 * ajv errors -> `invalid_params` entries with the exact reason texts of DECISIONS.md §3.
 * Runs only when validation failed, so clarity wins over speed here.
 */
import type { ErrorObject } from 'ajv';
import type { InvalidParam } from '../problem/index.js';
import type { Coordinate, ObjectTypeSpec, TypeSpec } from './field.js';
import { MAX_SAFE } from './json-schema.js';
import { UNIQUE_ITEMS_KEYWORD } from './unique.js';

/** The reason given when an integer lies outside ±(2^53−1) (DECISIONS.md §3, coercion rule). */
export const SAFE_INTEGER_REASON = 'must be a safe integer';

/** Name of the entry for an error on the body as a whole (for instance a JSON array sent as body). */
export const BODY_ROOT_NAME = 'body';

export function reasonFor(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'type':
      // `default = null` makes `["string", "null"]`: name the declared type.
      return `must be of type ${String(p.type).split(',')[0]}`;
    case 'format':
      return `must be a valid ${String(p.format)} format`;
    case 'pattern':
      return `must match pattern ${String(p.pattern)}`;
    case 'enum':
      return `must be one of: [${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}]`;
    case 'minLength':
      return `length must be at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `length must be at most ${String(p.limit)} characters`;
    case 'minimum':
      // json-schema.ts bounds integers at -(2^53-1) (or at the declared min when it is higher).
      return p.limit === -MAX_SAFE ? SAFE_INTEGER_REASON : `must be greater than or equal to ${String(p.limit)}`;
    case 'maximum':
      return p.limit === MAX_SAFE ? SAFE_INTEGER_REASON : `must be less than or equal to ${String(p.limit)}`;
    case 'minItems':
      return `must contain at least ${String(p.limit)} items`;
    case 'maxItems':
      return `must contain at most ${String(p.limit)} items`;
    case 'uniqueItems':
    case UNIQUE_ITEMS_KEYWORD:
      return 'items must be unique';
    default:
      // Not produced by toJsonSchema; keep ajv's own words rather than invent a text.
      return error.message ?? `failed the ${error.keyword} constraint`;
  }
}

interface Located {
  name: string;
  /** Declaration index per level (list index for lists), for a stable, readable order. */
  order: number[];
}

/**
 * Names follow DECISIONS.md §3: dots between object fields, `[i]` for list elements
 * (`address.city`, `tags[2]`, `items[0].sku`); a missing field is named itself, not its parent.
 * The walk follows the declared types, so a map key that looks like a number stays `.key`.
 */
function locate(error: ErrorObject, root: ObjectTypeSpec, rootName: string): Located {
  const segments = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map(unescapePointer);
  if (error.keyword === 'required') segments.push(String((error.params as { missingProperty: string }).missingProperty));
  let type: TypeSpec | undefined = root;
  let name = '';
  const order: number[] = [];
  for (const segment of segments) {
    if (type?.kind === 'list') {
      name += `[${segment}]`;
      order.push(Number(segment));
      type = type.items;
      continue;
    }
    name += name === '' ? segment : `.${segment}`;
    if (type?.kind === 'object') {
      const index: number = type.fields.findIndex((f) => f.name === segment);
      order.push(index < 0 ? type.fields.length : index);
      type = index < 0 ? undefined : type.fields[index]!.type;
    } else {
      order.push(0);
      type = type?.kind === 'map' ? type.values : undefined;
    }
  }
  return { name: name === '' ? rootName : name, order };
}

function unescapePointer(segment: string): string {
  return segment.includes('~') ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : segment;
}

/** One located, reasoned error; `order` sorts entries of one coordinate. */
export interface PendingParam {
  readonly param: InvalidParam;
  readonly order: readonly number[];
}

/**
 * Maps the errors of one coordinate, sorted by declaration order (stable for ties). `limit` bounds
 * the work for hostile requests: ajv finds errors nearly in the documented order, so the first `limit`
 * are exact for any honest request and still real failures in order beyond it (250,000 wrong
 * elements take ajv ~0.1 s to report; mapping and sorting them all several times that).
 */
export function mapErrors(errors: readonly ErrorObject[], where: Coordinate, root: ObjectTypeSpec, limit = Infinity): InvalidParam[] {
  if (errors.length > limit) errors = errors.slice(0, limit);
  const rootName = where === 'body' ? BODY_ROOT_NAME : '';
  // `enum` is the one keyword ajv checks whatever the type: after `must be of type string` the
  // enum failure of the same value says nothing new (every allowed value has the declared type).
  const mistyped = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const relevant = mistyped.size === 0 ? errors : errors.filter((e) => !(e.keyword === 'enum' && mistyped.has(e.instancePath)));
  const pending: PendingParam[] = relevant.map((error) => {
    const { name, order } = locate(error, root, rootName);
    return { param: { name, reason: reasonFor(error), in: where }, order };
  });
  pending.sort((a, b) => compareOrder(a.order, b.order));
  return pending.map((p) => p.param);
}

function compareOrder(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
