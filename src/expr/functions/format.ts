/**
 * `format(spec, values...)`: printf-style formatting with HCL's verbs:
 * `%%`, `%v` (any value: numbers and bools as text, null as "null", lists/objects as JSON; `%#v` is JSON
 * for everything), `%s` (string conversion), `%q` (quoted string), `%t` (bool), `%d` (whole number),
 * `%f` / `%e` / `%g` (numbers), `%x` / `%X` / `%o` / `%b` (whole numbers in other bases).
 * Flags `-` (left-align), `+`, ` `, `0` (zero-pad), `#`; width and `.precision`; `%[n]v` selects the
 * n-th value (1-based), as in HCL.
 */
import { type ExprBudget, reserveChars } from '../budget.js';
import { FunctionArgError, FunctionError } from '../errors.js';
import { terraformJson } from './json-encode.js';
import { formatNumber, primitiveToBool, primitiveToNumber, primitiveToString, typeName } from '../values.js';
import { str } from './args.js';
import { defineFunction } from './types.js';

const VERB = /%([-+ 0#]*)(?:\[(\d+)\])?(\d+)?(?:\.(\d*))?([a-zA-Z%])?/y;

interface Flags {
  minus: boolean;
  plus: boolean;
  space: boolean;
  zero: boolean;
  sharp: boolean;
}

function pad(s: string, width: number | undefined, f: Flags, numeric: boolean, budget: ExprBudget): string {
  if (width === undefined) return s;
  const len = Array.from(s).length;
  if (len >= width) return s;
  // The width may come from request data (`%${ctx.request.query.w}d`): charged before it is built.
  reserveChars(budget, width - len);
  if (f.minus) return s + ' '.repeat(width - len);
  if (f.zero && numeric) {
    const sign = s[0] === '-' || s[0] === '+' || s[0] === ' ' ? s[0] : '';
    return sign + '0'.repeat(width - len) + s.slice(sign.length);
  }
  return ' '.repeat(width - len) + s;
}

function signed(s: string, n: number, f: Flags): string {
  if (n >= 0 && !Object.is(n, -0)) {
    if (f.plus) return '+' + s;
    if (f.space) return ' ' + s;
  }
  return s;
}

function formatOne(verb: string, v: unknown, f: Flags, precision: number | undefined, argNo: number, budget: ExprBudget): { text: string; numeric: boolean } {
  const fail = (why: string): never => {
    throw new FunctionArgError(argNo, `unsupported value for "%${verb}" at ${argNo}: ${why}`);
  };
  if ((v === null || v === undefined) && verb !== 'v') fail('null value cannot be formatted');
  switch (verb) {
    case 'v': {
      if (f.sharp) return { text: terraformJson(v ?? null, budget), numeric: false };
      if (v === null || v === undefined) return { text: 'null', numeric: false };
      if (typeof v === 'number') return { text: signed(formatNumber(v), v, f), numeric: true };
      const s = typeof v === 'object' && !(v instanceof Date) ? terraformJson(v, budget) : primitiveToString(v)!;
      return { text: s, numeric: false };
    }
    case 's': {
      const s = typeof v === 'object' && !(v instanceof Date) ? fail(`string required, not ${typeName(v)}`) : primitiveToString(v)!;
      return { text: precision !== undefined ? Array.from(s).slice(0, precision).join('') : s, numeric: false };
    }
    case 'q': {
      const s = typeof v === 'object' && !(v instanceof Date) ? fail(`string required, not ${typeName(v)}`) : primitiveToString(v)!;
      return { text: JSON.stringify(s), numeric: false };
    }
    case 't': {
      const b = primitiveToBool(v);
      return { text: b === undefined ? fail(`bool required, not ${typeName(v)}`) : String(b), numeric: false };
    }
    case 'd':
    case 'x':
    case 'X':
    case 'o':
    case 'b': {
      const n = primitiveToNumber(v);
      if (n === undefined) return fail(`number required, not ${typeName(v)}`);
      if (!Number.isInteger(n)) return fail('value has no integer representation');
      const radix = verb === 'd' ? 10 : verb === 'o' ? 8 : verb === 'b' ? 2 : 16;
      let digits = BigInt(Math.abs(n)).toString(radix);
      if (verb === 'X') digits = digits.toUpperCase();
      if (f.sharp && verb !== 'd') digits = (verb === 'o' ? '0' : verb === 'b' ? '0b' : verb === 'X' ? '0X' : '0x') + digits;
      return { text: signed((n < 0 ? '-' : '') + digits, n, f), numeric: true };
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G': {
      const n = primitiveToNumber(v);
      if (n === undefined) return fail(`number required, not ${typeName(v)}`);
      let text: string;
      const lower = verb.toLowerCase();
      if (lower === 'f') text = n.toFixed(precision ?? 6);
      else if (lower === 'e') text = goExponent(n.toExponential(precision ?? 6));
      else text = precision === undefined ? formatNumber(n) : goExponent(String(Number(n.toPrecision(Math.max(precision, 1)))));
      if (verb === 'E' || verb === 'G') text = text.toUpperCase();
      return { text: signed(text, n, f), numeric: true };
    }
    default:
      throw new FunctionError(`unsupported format verb %${verb}`);
  }
}

/** Go writes exponents with at least two digits: 1e+06. */
function goExponent(s: string): string {
  return s.replace(/e([-+])(\d)$/, 'e$10$2');
}

export function format(spec: string, values: readonly unknown[], budget: ExprBudget, argOffset = 1): string {
  let out = '';
  let next = 0;
  let used = 0;
  let i = 0;
  while (i < spec.length) {
    const pct = spec.indexOf('%', i);
    if (pct < 0) {
      out += spec.slice(i);
      break;
    }
    out += spec.slice(i, pct);
    VERB.lastIndex = pct;
    const m = VERB.exec(spec);
    if (!m || m[5] === undefined) throw new FunctionError(`invalid format verb at offset ${pct}: a verb letter is required after "%"`);
    i = VERB.lastIndex;
    const [, flagText = '', explicit, widthText, precText, verb] = m;
    if (verb === '%') {
      out += '%';
      continue;
    }
    const f: Flags = {
      minus: flagText.includes('-'),
      plus: flagText.includes('+'),
      space: flagText.includes(' '),
      zero: flagText.includes('0'),
      sharp: flagText.includes('#'),
    };
    if (explicit !== undefined) next = Number(explicit) - 1;
    if (next < 0 || next >= values.length) {
      throw new FunctionError(`not enough arguments for "%${verb}" at offset ${pct}: ${values.length} value(s) given`);
    }
    const argNo = next + argOffset;
    const { text, numeric } = formatOne(verb, values[next], f, precText === undefined ? undefined : Number(precText || '0'), argNo, budget);
    used = Math.max(used, next + 1);
    next++;
    out += pad(text, widthText === undefined ? undefined : Number(widthText), f, numeric, budget);
  }
  if (used < values.length) throw new FunctionError(`too many arguments; only ${used} used by format string`);
  return out;
}

export const formatFn = defineFunction({
  name: 'format',
  params: ['format'],
  variadic: 'args',
  impl: (args, budget) => format(str(args, 0), args.slice(1), budget),
});
