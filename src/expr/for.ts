/**
 * `for` expressions: `[for k, v in coll : expr if cond]` and `{for k, v in coll : kexpr => vexpr... if cond}`.
 * As HCL: lists in index order, objects in key order, errors for a string, number or bool collection,
 * a non-bool `if`, a null key or a duplicate key without `...`. Unlike HCL, a null collection iterates
 * as empty: `ctx.request.body.tags` is null when not sent, and the `for` over it should be `[]`.
 */
import type { Range } from '../diag/index.js';
import { chargeItems, type ExprBudget } from './budget.js';
import { ExprEvalError } from './errors.js';
import type { Evaluator, Frame, Vars } from './scope.js';
import { isObject, primitiveToBool, primitiveToString, setKey, sortedKeys, typeName } from './values.js';

export interface ForParts {
  readonly collection: Evaluator;
  readonly collectionRange: Range;
  readonly keySlot: number | undefined;
  readonly valueSlot: number;
  readonly keyExpr?: Evaluator;
  readonly keyRange?: Range;
  readonly valueExpr: Evaluator;
  readonly cond?: Evaluator;
  readonly condRange?: Range;
  readonly group: boolean;
  readonly range: Range;
}

/**
 * Runs `each(out, v, f)` per element, binding the key and value slots. `each` is created once per
 * compiled expression (not per evaluation), and the accumulator is passed in, so iterating allocates
 * nothing but the result. Every step is charged to the size budget (budget.ts), filtered out or not,
 * all at once before the loop: nested loops over request data stop there however little they keep.
 */
function iterate<T>(
  c: unknown,
  p: ForParts,
  v: Vars,
  f: Frame,
  budget: ExprBudget,
  out: T,
  each: (out: T, v: Vars, f: Frame, budget: ExprBudget) => void,
): void {
  const { keySlot, valueSlot } = p;
  if (Array.isArray(c)) {
    chargeItems(budget, c.length, p.range);
    for (let i = 0; i < c.length; i++) {
      if (keySlot !== undefined) f[keySlot] = i;
      f[valueSlot] = c[i] ?? null;
      if (p.cond === undefined || condition(p.cond(v, f, budget), p.condRange!)) each(out, v, f, budget);
    }
    return;
  }
  if (isObject(c)) {
    const keys = sortedKeys(c);
    chargeItems(budget, keys.length, p.range);
    for (const k of keys) {
      if (keySlot !== undefined) f[keySlot] = k;
      f[valueSlot] = c[k] ?? null;
      if (p.cond === undefined || condition(p.cond(v, f, budget), p.condRange!)) each(out, v, f, budget);
    }
    return;
  }
  if (c === null || c === undefined) return;
  throw new ExprEvalError(
    'Iteration over non-iterable value',
    `A value of type ${typeName(c)} cannot be used as the collection in a 'for' expression.`,
    p.collectionRange,
  );
}

function condition(c: unknown, range: Range): boolean {
  if (c === true || c === false) return c;
  const b = primitiveToBool(c);
  if (b !== undefined) return b;
  throw new ExprEvalError(
    "Invalid 'for' condition",
    c === null || c === undefined
      ? 'The condition value is null. Conditions must either be true or false.'
      : `The 'if' clause value is invalid: bool required, not ${typeName(c)}.`,
    range,
  );
}

export function forTuple(p: ForParts): Evaluator {
  const value = p.valueExpr;
  const each = (out: unknown[], v: Vars, f: Frame, budget: ExprBudget): void => {
    out.push(value(v, f, budget));
  };
  return (v, f, budget) => {
    const out: unknown[] = [];
    iterate(p.collection(v, f, budget), p, v, f, budget, out, each);
    return out;
  };
}

export function forObject(p: ForParts): Evaluator {
  const keyExpr = p.keyExpr!;
  const value = p.valueExpr;
  const keyRange = p.keyRange ?? p.range;
  const each = (out: Record<string, unknown>, v: Vars, f: Frame, budget: ExprBudget): void => {
    const kv = keyExpr(v, f, budget);
    const k = typeof kv === 'string' ? kv : typeof kv === 'object' && kv !== null ? undefined : primitiveToString(kv);
    if (k === undefined) {
      throw new ExprEvalError(
        'Invalid object key',
        kv === null || kv === undefined
          ? "Key expression in 'for' expression must not produce a null value."
          : `The key expression produced an invalid result: string required, not ${typeName(kv)}.`,
        keyRange,
      );
    }
    const val = value(v, f, budget);
    if (p.group) {
      if (Object.hasOwn(out, k)) (out[k] as unknown[]).push(val);
      else setKey(out, k, [val]);
    } else {
      if (Object.hasOwn(out, k)) {
        throw new ExprEvalError(
          'Duplicate object key',
          `Two different items produced the key "${k}" in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.`,
          keyRange,
        );
      }
      setKey(out, k, val);
    }
  };
  return (v, f, budget) => {
    const out: Record<string, unknown> = {};
    iterate(p.collection(v, f, budget), p, v, f, budget, out, each);
    return out;
  };
}
