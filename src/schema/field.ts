/**
 * Field declarations as the manifest states them, after decoding (both dialects map onto these).
 * This file is the contract between src/manifest (which produces them) and src/schema (which compiles
 * them to JSON Schema 2020-12 and validators). Change it only by adding.
 */
import type { Range } from '../diag/index.js';

export type ScalarKind = 'string' | 'integer' | 'number' | 'boolean' | 'any';

export type TypeSpec =
  | { readonly kind: ScalarKind }
  | { readonly kind: 'list'; readonly items: TypeSpec }
  | { readonly kind: 'map'; readonly values: TypeSpec }
  | ObjectTypeSpec;

/** An object with declared fields: a `schema "<name>"` block (then `name` is set) or an inline body. */
export interface ObjectTypeSpec {
  readonly kind: 'object';
  readonly fields: readonly FieldSpec[];
  readonly name?: string;
  readonly description?: string;
}

export interface FieldSpec {
  readonly name: string;
  readonly type: TypeSpec;
  readonly required: boolean;
  /** Present only when the manifest declares a default (a declared `default = null` is kept). */
  readonly hasDefault: boolean;
  /** `nullable = true`: null is a value of the field (as with `default = null`), present or not. */
  readonly nullable?: boolean;
  readonly default?: unknown;
  readonly description?: string;
  readonly enum?: readonly (string | number)[];
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly min?: number;
  readonly max?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  /** Where the field is declared, for boot diagnostics. */
  readonly range?: Range;
}

/** The four request coordinates of SPEC.md §2.4. Header names are stored lower-case. */
export interface RequestSpec {
  readonly path: readonly FieldSpec[];
  readonly query: readonly FieldSpec[];
  readonly headers: readonly FieldSpec[];
  readonly body?: ObjectTypeSpec;
}

export type Coordinate = 'path' | 'query' | 'header' | 'body';
