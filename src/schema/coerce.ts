/**
 * Text -> typed values for path, query and header fields (SPEC.md §2.4 rule 3).
 *
 * Only an exact literal of the declared type is converted; other text stays text, so the validator
 * reports `must be of type <t>` and checks `min`/`max`/`enum` on numbers only. One spelling per value,
 * as in JSON (caches and logs never see `1`, `01`, `+1` as one): integers without `+`, leading zeros
 * or exponent (beyond ±(2^53−1) the validator says `must be a safe integer`, DECISIONS.md §3); the
 * JSON number grammar, finite only; booleans exactly `true`/`false`, as OpenAPI documents them.
 * A repeated query key or a comma-split header gives a list; a scalar field given several values
 * stays an array and fails rather than picking one (parameter pollution).
 */
import type { FieldSpec, ScalarKind, TypeSpec } from './field.js';

const INTEGER_LITERAL = /^-?(?:0|[1-9][0-9]*)$/;
const NUMBER_LITERAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

export type TextValue = string | readonly string[];
export type TextParser = (raw: TextValue) => unknown;

export function parseInteger(text: string): number | string {
  // `+ 0` turns -0 into 0, the only integer JSON would not write back as it was read.
  return INTEGER_LITERAL.test(text) ? Number(text) + 0 : text;
}

export function parseNumber(text: string): number | string {
  if (!NUMBER_LITERAL.test(text)) return text;
  const n = Number(text) + 0;
  return Number.isFinite(n) ? n : text;
}

export function parseBoolean(text: string): boolean | string {
  return text === 'true' ? true : text === 'false' ? false : text;
}

function identity(text: string): string {
  return text;
}

export function scalarParser(kind: ScalarKind): (text: string) => unknown {
  switch (kind) {
    case 'integer':
      return parseInteger;
    case 'number':
      return parseNumber;
    case 'boolean':
      return parseBoolean;
    case 'string':
    case 'any':
      return identity;
  }
}

const HEADER_LIST_SEPARATOR = /[ \t]*,[ \t]*/;

/**
 * The parser of one declared path/query/header field. Only scalars and lists of scalars arrive as
 * text; check.ts refuses other types there at boot.
 */
export function textParser(field: FieldSpec, headerList: boolean): TextParser {
  const type: TypeSpec = field.type;
  if (type.kind === 'list') {
    const item = scalarParser(scalarKindOf(type.items));
    return (raw) => {
      const parts = typeof raw === 'string' ? (headerList ? raw.trim().split(HEADER_LIST_SEPARATOR) : [raw]) : raw;
      const out = new Array<unknown>(parts.length);
      for (let i = 0; i < parts.length; i++) out[i] = item(parts[i]!);
      return out;
    };
  }
  const scalar = scalarParser(scalarKindOf(type));
  if (scalar === identity) return (raw) => raw;
  return (raw) => (typeof raw === 'string' ? scalar(raw) : raw);
}

function scalarKindOf(type: TypeSpec): ScalarKind {
  switch (type.kind) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
    case 'any':
      return type.kind;
    default:
      // Refused by check.ts before any parser is built; kept as text if it ever gets here.
      return 'string';
  }
}

/** True when the text form of a field is already its value (no conversion, no array wrapping). */
export function isTextIdentity(type: TypeSpec): boolean {
  return type.kind === 'string' || type.kind === 'any';
}
