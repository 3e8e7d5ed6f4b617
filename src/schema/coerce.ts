/**
 * Text -> typed values for path, query and header fields (SPEC.md §2.4 rule 3).
 *
 * A text is converted only when it is an exact literal of the declared type; any other text is left
 * as it is, so the validator that runs next reports the documented `must be of type <t>` for it, and
 * `min`/`max`/`enum` are checked on the numeric value, never on the text. The typed value therefore
 * reaches the pipeline only after validation has passed. Literal grammars (strict on purpose: one
 * spelling per value, as in JSON, so caches and logs never see `1`, `01` and `+1` as the same thing):
 * - integer: `-?(0|[1-9][0-9]*)`, no sign `+`, no leading zeros, no exponent. A literal outside
 *   ±(2^53−1) becomes a number beyond the safe bound, which the validator reports as
 *   `must be a safe integer` (DECISIONS.md §3).
 * - number: the JSON number grammar; `NaN`, `Infinity` and literals that overflow to it are refused.
 * - boolean: exactly `true` or `false`. `1`/`0`, `yes`/`no` and other casings are refused: they are
 *   what OpenAPI documents and what every client library sends, and accepting more makes `?flag=0`
 *   mean different things in different deployments.
 * - string and any: the text itself.
 * Lists: a query key repeated (`?tag=a&tag=b`) gives the elements, a single key one element; a list
 * header is split on commas (RFC 9110 §5.3 list syntax). A scalar field that receives several values
 * stays an array and fails with `must be of type <t>` rather than silently picking one of them
 * (parameter pollution).
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
