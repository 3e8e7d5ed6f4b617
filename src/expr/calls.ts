/**
 * Function calls at run time: arguments evaluated, a final `...` expanded (its count checked then),
 * and implementations' errors turned into positioned EvalErrors (FunctionArgError on the argument,
 * anything else on the call). Every call is charged to the size budget (budget.ts) for its string
 * arguments and its result, one check covering every function; those that could allocate far more
 * than their arguments also charge before building (format, join, json_encode).
 */
import type * as ast from '../hcl/index.js';
import { BudgetExceeded, chargeChars, chargeItems, type ExprBudget } from './budget.js';
import { ExprEvalError, FunctionArgError, FunctionError } from './errors.js';
import type { FunctionDef } from './functions/index.js';
import type { FunctionImpl } from './functions/types.js';
import type { Evaluator } from './scope.js';
import { typeName } from './values.js';

export function describeArity(def: FunctionDef): string {
  if (def.maxArgs === Infinity) return `at least ${def.minArgs} argument(s)`;
  if (def.minArgs === def.maxArgs) return `${def.minArgs} argument(s)`;
  return `${def.minArgs} to ${def.maxArgs} arguments`;
}

/** A call: arguments evaluated, `...` expanded, implementation errors mapped to positioned EvalErrors. */
export function callEvaluator(def: FunctionDef, e: ast.FunctionCall, argFns: readonly Evaluator[], impl: FunctionImpl = def.impl): Evaluator {
  const n = argFns.length;
  const argRanges = e.args.map((a) => a.range);
  const fail = (err: unknown): never => {
    if (err instanceof BudgetExceeded) throw err.at(e.range);
    if (err instanceof FunctionArgError) {
      const i = Math.min(err.argIndex, argRanges.length - 1);
      const param = def.params[err.argIndex] ?? def.variadic ?? 'argument';
      throw new ExprEvalError('Invalid function argument', `Invalid value for "${param}" parameter: ${err.message}.`, argRanges[i] ?? e.range);
    }
    if (err instanceof FunctionError) throw new ExprEvalError('Error in function call', `Call to function "${def.name}" failed: ${err.message}.`, e.range);
    if (err instanceof ExprEvalError) throw err;
    throw new ExprEvalError('Error in function call', `Call to function "${def.name}" failed: ${(err as Error)?.message ?? String(err)}.`, e.range);
  };
  if (e.expandFinal) {
    const last = n - 1;
    const lastRange = e.args[last]!.range;
    return (v, f, budget) => {
      const args: unknown[] = [];
      for (let i = 0; i < last; i++) args.push(argFns[i]!(v, f, budget));
      const tail = argFns[last]!(v, f, budget);
      if (Array.isArray(tail)) for (const t of tail) args.push(t);
      else if (tail !== null && tail !== undefined) {
        throw new ExprEvalError(
          'Invalid expanding argument value',
          `The expanding argument (indicated by ...) must be a list, not ${typeName(tail)}.`,
          lastRange,
        );
      }
      if (args.length < def.minArgs) {
        throw new ExprEvalError(
          'Not enough function arguments',
          `Function "${def.name}" expects ${describeArity(def)}. Missing value for "${def.params[args.length] ?? def.variadic}".`,
          e.range,
        );
      }
      if (args.length > def.maxArgs)
        throw new ExprEvalError('Too many function arguments', `Function "${def.name}" expects only ${describeArity(def)}.`, e.range);
      let r: unknown;
      try {
        r = impl(args, budget);
      } catch (err) {
        return fail(err);
      }
      return charged(budget, r, args, e.range);
    };
  }
  if (n === 0) {
    const none: unknown[] = [];
    return (_v, _f, budget) => {
      let r: unknown;
      try {
        r = impl(none, budget);
      } catch (err) {
        return fail(err);
      }
      return charged(budget, r, none, e.range);
    };
  }
  if (n === 1) {
    const a = argFns[0]!;
    return (v, f, budget) => {
      const x = a(v, f, budget);
      let r: unknown;
      try {
        r = impl([x], budget);
      } catch (err) {
        return fail(err);
      }
      return charged1(budget, r, x, e.range);
    };
  }
  if (n === 2) {
    const [a, b] = argFns as [Evaluator, Evaluator];
    return (v, f, budget) => {
      const x = a(v, f, budget);
      const y = b(v, f, budget);
      let r: unknown;
      try {
        r = impl([x, y], budget);
      } catch (err) {
        return fail(err);
      }
      return charged2(budget, r, x, y, e.range);
    };
  }
  return (v, f, budget) => {
    const args = new Array<unknown>(n);
    for (let i = 0; i < n; i++) args[i] = argFns[i]!(v, f, budget);
    let r: unknown;
    try {
      r = impl(args, budget);
    } catch (err) {
      return fail(err);
    }
    return charged(budget, r, args, e.range);
  };
}

/**
 * Charges a call to the size budget: the text of its string arguments (which it may scan: a hash or
 * `length` of a large string inside a loop is work too) and what it returns.
 */
function charged(budget: ExprBudget, r: unknown, args: readonly unknown[], range: ast.FunctionCall['range']): unknown {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (typeof a === 'string') chargeChars(budget, a.length, range);
  }
  if (typeof r === 'string') chargeChars(budget, r.length, range);
  else if (Array.isArray(r)) chargeItems(budget, r.length, range);
  return r;
}

/** `charged` for one argument, without going through an array (the common calls are the cheap ones). */
function charged1(budget: ExprBudget, r: unknown, x: unknown, range: ast.FunctionCall['range']): unknown {
  const n = (typeof x === 'string' ? x.length : 0) + (typeof r === 'string' ? r.length : 0);
  if (n !== 0) chargeChars(budget, n, range);
  if (Array.isArray(r)) chargeItems(budget, r.length, range);
  return r;
}

/** `charged` for two arguments. */
function charged2(budget: ExprBudget, r: unknown, x: unknown, y: unknown, range: ast.FunctionCall['range']): unknown {
  const n = (typeof x === 'string' ? x.length : 0) + (typeof y === 'string' ? y.length : 0) + (typeof r === 'string' ? r.length : 0);
  if (n !== 0) chargeChars(budget, n, range);
  if (Array.isArray(r)) chargeItems(budget, r.length, range);
  return r;
}
