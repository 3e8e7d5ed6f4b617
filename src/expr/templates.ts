/**
 * Templates: `"a ${x} b"`, heredocs, `%{if}` and `%{for}` directives. A template always produces a
 * string, except the single-interpolation wrap (`"${x}"`), which the compiler handles before calling
 * here (hclsyntax's TemplateWrapExpr).
 */
import type { Range } from '../diag/index.js';
import { chargeChars, chargeItems, type ExprBudget } from './budget.js';
import { ExprEvalError } from './errors.js';
import type { Evaluator, Frame, Vars } from './scope.js';
import { isObject, primitiveToBool, primitiveToString, sortedKeys, typeName } from './values.js';

/** A value converted for interpolation; null and structured values are errors, as in HCL. */
export function interpolate(v: unknown, range: Range): string {
  const s = primitiveToString(v);
  if (s !== undefined) return s;
  if (v === null || v === undefined) {
    throw new ExprEvalError('Invalid template interpolation value', 'The expression result is null. Cannot include a null value in a string template.', range);
  }
  throw new ExprEvalError(
    'Invalid template interpolation value',
    `Cannot include the given value in a string template: string required, not ${typeName(v)}.`,
    range,
  );
}

/**
 * Concatenates parts, each already producing a string; the text built is charged to the evaluation's
 * budget (budget.ts). A single part is not charged again: it is a literal, or a directive that
 * charges what it builds.
 */
export function concat(parts: readonly Evaluator[], range: Range): Evaluator {
  const n = parts.length;
  if (n === 0) return () => '';
  if (n === 1) return parts[0]!;
  if (n === 2) {
    const [a, b] = parts as [Evaluator, Evaluator];
    return (v, f, budget) => {
      const s = (a(v, f, budget) as string) + (b(v, f, budget) as string);
      chargeChars(budget, s.length, range);
      return s;
    };
  }
  if (n === 3) {
    const [a, b, c] = parts as [Evaluator, Evaluator, Evaluator];
    return (v, f, budget) => {
      const s = (a(v, f, budget) as string) + (b(v, f, budget) as string) + (c(v, f, budget) as string);
      chargeChars(budget, s.length, range);
      return s;
    };
  }
  return (v, f, budget) => {
    let s = '';
    for (let i = 0; i < n; i++) s += parts[i]!(v, f, budget) as string;
    chargeChars(budget, s.length, range);
    return s;
  };
}

export function interpPart(expr: Evaluator, range: Range): Evaluator {
  return (v, f, budget) => {
    const x = expr(v, f, budget);
    return typeof x === 'string' ? x : interpolate(x, range);
  };
}

export function ifPart(cond: Evaluator, condRange: Range, then: Evaluator, otherwise: Evaluator): Evaluator {
  return (v, f, budget) => {
    const c = cond(v, f, budget);
    if (c === true) return then(v, f, budget);
    if (c === false) return otherwise(v, f, budget);
    const b = primitiveToBool(c);
    if (b === undefined) {
      throw new ExprEvalError(
        'Invalid template if condition',
        c === null || c === undefined
          ? 'The condition value is null. Conditions must either be true or false.'
          : `The condition must be a bool, not ${typeName(c)}.`,
        condRange,
      );
    }
    return b ? then(v, f, budget) : otherwise(v, f, budget);
  };
}

/**
 * `%{for k, v in coll}body%{endfor}`: body evaluated per element with k, v in their frame slots. The
 * steps are charged before the loop, the text each adds as it is added, so nested directives over
 * request data stop at the budget instead of after building the whole text.
 */
export function forPart(coll: Evaluator, collRange: Range, keySlot: number | undefined, valueSlot: number, body: Evaluator, range: Range): Evaluator {
  return (v: Vars, f: Frame, budget: ExprBudget) => {
    const c = coll(v, f, budget);
    let s = '';
    if (Array.isArray(c)) {
      chargeItems(budget, c.length, range);
      for (let i = 0; i < c.length; i++) {
        if (keySlot !== undefined) f[keySlot] = i;
        f[valueSlot] = c[i] ?? null;
        const piece = body(v, f, budget) as string;
        chargeChars(budget, piece.length, range);
        s += piece;
      }
      return s;
    }
    if (isObject(c)) {
      const keys = sortedKeys(c);
      chargeItems(budget, keys.length, range);
      for (const k of keys) {
        if (keySlot !== undefined) f[keySlot] = k;
        f[valueSlot] = c[k] ?? null;
        const piece = body(v, f, budget) as string;
        chargeChars(budget, piece.length, range);
        s += piece;
      }
      return s;
    }
    if (c === null || c === undefined) return s;
    throw new ExprEvalError(
      'Iteration over non-iterable value',
      `A value of type ${typeName(c)} cannot be used as the collection in a 'for' directive.`,
      collRange,
    );
  };
}
