/**
 * Typed readers for attribute values. Configuration values are evaluated once at boot and checked
 * against the type the attribute wants; runtime expressions are compiled, and when they are
 * constant their value is checked too. Every reader reports its own diagnostic and returns
 * undefined on failure, so callers just skip what could not be read.
 */
import type { Attribute } from '../hcl/index.js';
import { didYouMean } from '../diag/index.js';
import type { Expr } from './step-types.js';
import { compileRuntime, evaluateCompiled, evaluateStatic, type Static } from './expr.js';
import { parseDuration, DURATION_HINT } from './duration.js';
import { parseSize, SIZE_HINT } from './size.js';
import type { DecodeScope } from './scope.js';

export function typeError(attr: Attribute, scope: DecodeScope, need: string): void {
  scope.error('Incorrect attribute value type', attr.expr.range, {
    detail: `Inappropriate value for attribute "${attr.name}": ${need} is required.`,
  });
}

export function invalidValue(attr: Attribute, scope: DecodeScope, detail: string, suggestion?: string): void {
  scope.error('Invalid value', attr.expr.range, { detail, ...(suggestion !== undefined ? { suggestion } : {}) });
}

export function readStatic(attr: Attribute | undefined, scope: DecodeScope): Static {
  if (!attr) return { ok: false };
  return evaluateStatic(attr.expr, scope);
}

export function readString(attr: Attribute | undefined, scope: DecodeScope): string | undefined {
  const v = readStatic(attr, scope);
  if (!v.ok) return undefined;
  if (typeof v.value !== 'string') return void typeError(attr!, scope, 'a string');
  return v.value;
}

/**
 * Values computed at boot (`env("PORT", 8080)`) arrive as strings; digits are accepted from such
 * expressions, but a quoted literal (`port = "8080"`) is still a type error: it was written wrong.
 */
function computed(attr: Attribute): boolean {
  return attr.expr.kind !== 'Template' && attr.expr.kind !== 'Literal';
}

/** A decimal number as JSON writes it (what an environment variable holding a number looks like). */
const DECIMAL = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function toNumber(value: unknown, lenient: boolean): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  // Decimal text only: Number() would also read "0x50" as 80 and "0b1" as 1.
  if (lenient && typeof value === 'string' && DECIMAL.test(value.trim())) return Number(value);
  return undefined;
}

export function readNumber(attr: Attribute | undefined, scope: DecodeScope, bounds: { min?: number; max?: number } = {}): number | undefined {
  const v = readStatic(attr, scope);
  if (!v.ok) return undefined;
  const n = toNumber(v.value, computed(attr!));
  // 1e400 evaluates to Infinity: no JSON value reaches it, and JSON Schema cannot say it.
  if (n === undefined || !Number.isFinite(n)) return void typeError(attr!, scope, 'a finite number');
  return inBounds(attr!, scope, n, bounds);
}

export function readInt(attr: Attribute | undefined, scope: DecodeScope, bounds: { min?: number; max?: number } = {}): number | undefined {
  const v = readStatic(attr, scope);
  if (!v.ok) return undefined;
  const n = toNumber(v.value, computed(attr!));
  if (n === undefined || !Number.isSafeInteger(n)) return void typeError(attr!, scope, 'a whole number');
  return inBounds(attr!, scope, n, bounds);
}

function inBounds(attr: Attribute, scope: DecodeScope, n: number, { min, max }: { min?: number; max?: number }): number | undefined {
  if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
    const range = min !== undefined && max !== undefined ? `between ${min} and ${max}` : min !== undefined ? `at least ${min}` : `at most ${max}`;
    return void invalidValue(attr, scope, `"${attr.name}" must be ${range}; got ${n}.`);
  }
  return n;
}

export function readBool(attr: Attribute | undefined, scope: DecodeScope): boolean | undefined {
  const v = readStatic(attr, scope);
  if (!v.ok) return undefined;
  if (typeof v.value === 'boolean') return v.value;
  if (computed(attr!) && (v.value === 'true' || v.value === 'false')) return v.value === 'true'; // from env()
  return void typeError(attr!, scope, 'a bool');
}

export function readStringList(attr: Attribute | undefined, scope: DecodeScope): string[] | undefined {
  const v = readStatic(attr, scope);
  if (!v.ok) return undefined;
  if (!Array.isArray(v.value) || !v.value.every((s) => typeof s === 'string')) return void typeError(attr!, scope, 'a list of strings');
  return v.value as string[];
}

/** The longest delay a Node.js timer supports (2^31-1 ms, about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a duration may be by default: a time-out or interval, run on a timer, so 1 ms to MAX_TIMER_MS. */
const TIMER: DurationBounds = { min: 1, max: MAX_TIMER_MS };

export interface DurationBounds {
  readonly min?: number;
  readonly max?: number;
}

/**
 * Milliseconds from a duration string such as "1m30s". By default the value must suit a timer: a zero
 * time-out would fail every request, and one beyond MAX_TIMER_MS would fire at once. Values that are
 * not timers (a cache ttl, a `0` that disables a database time-out) pass their own bounds.
 */
export function readDuration(attr: Attribute | undefined, scope: DecodeScope, bounds: DurationBounds = TIMER): number | undefined {
  const v = readStatic(attr, scope);
  if (!v.ok) return undefined;
  if (typeof v.value !== 'string') return void typeError(attr!, scope, `a duration string such as "30s"`);
  const ms = parseDuration(v.value);
  if (ms === undefined) {
    scope.error('Invalid duration', attr!.expr.range, { detail: `"${v.value}" is not a duration: ${DURATION_HINT}.` });
    return undefined;
  }
  const { min, max } = bounds;
  if ((min !== undefined && ms < min) || (max !== undefined && ms > max)) {
    const limits = [min !== undefined ? `at least ${min} ms` : '', max !== undefined ? `at most ${max} ms` : ''].filter(Boolean).join(' and ');
    const why = max === MAX_TIMER_MS ? ' (about 24.8 days, the longest timer Node.js supports)' : '';
    scope.error('Invalid duration', attr!.expr.range, { detail: `"${attr!.name}" must be ${limits}${why}; "${v.value}" is ${ms} ms.` });
    return undefined;
  }
  return ms;
}

/** Bytes from a size string such as "1MiB" (or a whole number of bytes). */
export function readSize(attr: Attribute | undefined, scope: DecodeScope): number | undefined {
  const v = readStatic(attr, scope);
  if (!v.ok) return undefined;
  if (typeof v.value !== 'string' && typeof v.value !== 'number') return void typeError(attr!, scope, `a size string such as "1MiB"`);
  const bytes = parseSize(v.value);
  if (bytes === undefined) {
    scope.error('Invalid size', attr!.expr.range, { detail: `"${String(v.value)}" is not a byte size: ${SIZE_HINT}.` });
  }
  return bytes;
}

/** One of a fixed set of strings; `fold` compares case-insensitively and returns the canonical spelling. */
export function readChoice<T extends string>(attr: Attribute | undefined, scope: DecodeScope, choices: readonly T[], fold = false): T | undefined {
  const s = readString(attr, scope);
  if (s === undefined) return undefined;
  const found = choices.find((c) => (fold ? c.toLowerCase() === s.toLowerCase() : c === s));
  if (found === undefined) {
    // A near miss, or a longer product name that contains a choice ("swagger-ui" -> "swagger").
    const suggestion = didYouMean(s, choices) ?? choices.find((c) => s.toLowerCase().includes(c.toLowerCase()));
    invalidValue(attr!, scope, `"${attr!.name}" must be one of ${choices.map((c) => `"${c}"`).join(', ')}; got "${s}".`, suggestion);
  }
  return found;
}

export type ValueKind = 'string' | 'number' | 'int' | 'bool' | 'map' | 'list';

const KIND_NAME: Record<ValueKind, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  bool: 'a bool',
  map: 'an object',
  list: 'a list',
};

function hasKind(value: unknown, kind: ValueKind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' || typeof value === 'bigint';
    case 'int':
      return (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint';
    case 'bool':
      return typeof value === 'boolean';
    case 'map':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'list':
      return Array.isArray(value);
  }
}

/**
 * A runtime expression, compiled once. When it is constant and `expect` is given, its value is
 * checked now (a `condition = "yes"` is a boot error, not a request-time surprise).
 */
export function readExpr(attr: Attribute | undefined, scope: DecodeScope, expect?: ValueKind, roots?: ReadonlySet<string>): Expr | undefined {
  if (!attr) return undefined;
  const { compiled, ok } = compileRuntime(attr.expr, scope, roots);
  if (ok && expect && compiled.constant) {
    const v = evaluateCompiled(compiled, scope);
    if (!v.ok) return undefined;
    // null is "not set" for optional runtime values (a null body sends no body).
    if (v.value !== null && !hasKind(v.value, expect)) return void typeError(attr, scope, KIND_NAME[expect]);
  }
  return compiled;
}

/** An HTTP status written in the manifest: a whole number from 100 to 599. */
export function checkStatus(attr: Attribute, scope: DecodeScope, value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) return void typeError(attr, scope, 'a whole-number HTTP status');
  if (value < 100 || value > 599) {
    scope.error('Invalid status code', attr.expr.range, { detail: `An HTTP status is between 100 and 599; got ${value}.` });
    return undefined;
  }
  return value;
}

export function readStatus(attr: Attribute | undefined, scope: DecodeScope): number | undefined {
  const v = readStatic(attr, scope);
  return v.ok ? checkStatus(attr!, scope, v.value) : undefined;
}
