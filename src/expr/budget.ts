/**
 * The size budget of expression evaluation: how much text and how many collection elements the
 * expressions of one request may build (issue 15, class 4), so that a nested `%{for}` or a `format()`
 * width from the query cannot build hundreds of megabytes from a small request.
 *
 * Charged only where values are built or collections gone through (templates, `for` steps, splats,
 * function results, before allocation where a function could outgrow its arguments); reads and
 * fixed-size constructors are free. One budget per request, on `ctx` under the `EXPR_BUDGET` symbol
 * (no expression or serialiser sees it), handed down explicitly as the evaluators' third argument so
 * no state outlives an evaluation. Exceeding it throws `ExprEvalError` "Expression result too large".
 */
import type { Range } from '../diag/index.js';
import { ExprEvalError } from './errors.js';

/** Characters of text the expressions of one request may build (UTF-16 code units). */
export const MAX_BUILT_CHARS = 16 * 1024 * 1024;
/**
 * Collection items the expressions of one request may go through or build: each step of a `for`
 * expression, a `%{for}` directive or a splat, each element of a list a function returns, each item a
 * function scans (`contains`, `merge`). Counting steps rather than produced elements also bounds the
 * work of nested loops that produce nothing (`[for a in x : [for b in x : 1 if false]]`).
 */
export const MAX_ITEMS = 1024 * 1024;

/** What is left of a budget; both counts go down as values are built. */
export interface ExprBudget {
  chars: number;
  items: number;
}

/** The key of the request's budget on `ctx`. */
export const EXPR_BUDGET: unique symbol = Symbol('svc.exprBudget');

export function newExprBudget(): ExprBudget {
  return { chars: MAX_BUILT_CHARS, items: MAX_ITEMS };
}

/** The budget an evaluation starts with: the request's when `ctx` carries one, else a fresh one. */
export function budgetOf(vars: Readonly<Record<string, unknown>>): ExprBudget {
  const ctx = vars.ctx as { readonly [EXPR_BUDGET]?: ExprBudget } | null | undefined;
  const budget = ctx !== null && typeof ctx === 'object' ? ctx[EXPR_BUDGET] : undefined;
  return budget ?? newExprBudget();
}

/**
 * What an expression that charges nothing (it only reads: `ctx.request.query.limit`) is handed: no
 * budget is looked up or made for it. Never drawn from; were it, it would not run out.
 */
export const UNCHARGED: ExprBudget = { chars: Number.POSITIVE_INFINITY, items: Number.POSITIVE_INFINITY };

/** Charges `n` characters built at `range`; once over, every later charge of the request fails too. */
export function chargeChars(budget: ExprBudget, n: number, range: Range): void {
  if ((budget.chars -= n) < 0) throw tooMuchText(range);
}

/** Charges `n` collection items gone through or built at `range`. */
export function chargeItems(budget: ExprBudget, n: number, range: Range): void {
  if ((budget.items -= n) < 0) throw tooManyItems(range);
}

/**
 * Thrown inside a function implementation that would build or scan more than is left; the call site
 * turns it into the same error as `chargeChars` / `chargeItems`, at the call (calls.ts).
 */
export class BudgetExceeded extends Error {
  constructor(readonly what: 'chars' | 'items') {
    super(what === 'chars' ? 'the expressions built too much text' : 'the expressions went through too many items');
    this.name = 'BudgetExceeded';
  }

  at(range: Range): ExprEvalError {
    return this.what === 'chars' ? tooMuchText(range) : tooManyItems(range);
  }
}

/** For function implementations: charges `n` characters before building (or scanning) them. */
export function reserveChars(budget: ExprBudget, n: number): void {
  if ((budget.chars -= n) < 0) throw new BudgetExceeded('chars');
}

/** For function implementations: charges `n` items before building (or scanning) them. */
export function reserveItems(budget: ExprBudget, n: number): void {
  if ((budget.items -= n) < 0) throw new BudgetExceeded('items');
}

export const TOO_LARGE = 'Expression result too large';

export function tooMuchText(range: Range): ExprEvalError {
  return new ExprEvalError(
    TOO_LARGE,
    `The expressions built more than ${MAX_BUILT_CHARS.toLocaleString('en-US')} characters of text (for one request, or for one constant at boot); a template or function here would exceed that.`,
    range,
  );
}

function tooManyItems(range: Range): ExprEvalError {
  return new ExprEvalError(
    TOO_LARGE,
    `The expressions went through or built more than ${MAX_ITEMS.toLocaleString('en-US')} list or object items (for one request, or for one constant at boot); this expression would exceed that.`,
    range,
  );
}
