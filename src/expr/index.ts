/**
 * Expressions compiled once into closures (boot compiles, requests only run):
 *
 *     const { compiled, diagnostics } = compileExpression(attr.expr);   // at boot
 *     compiled.evaluate({ ctx, steps });   // per request; throws ExprEvalError
 *
 * HCL's semantics (hclsyntax spec) on JSON-like values; the product's decisions live beside the code
 * they shape (traversal.ts, for.ts, operators.ts, functions/) and in README.md next to this file.
 */
import type { Diagnostic, Range } from '../diag/index.js';
import type { Expression } from '../hcl/index.js';
import { budgetOf, UNCHARGED } from './budget.js';
import { ExprCompiler, type Node } from './compile.js';
import { standardFunctions, type FunctionTable } from './functions/index.js';
import { staticReferences, type Reference } from './references.js';
import { EMPTY_FRAME, ExprScope, type Vars } from './scope.js';
import { emptyUrlShape, type UrlShape } from './url.js';

export { EXPR_BUDGET, type ExprBudget, newExprBudget } from './budget.js';
export { ExprEvalError } from './errors.js';
export { jsonLengthExceeds, MAX_RESPONSE_CHARS, ResponseTooLarge, responseJson } from './json-size.js';
export { standardFunctions } from './functions/index.js';
export type { FunctionDef, FunctionTable } from './functions/index.js';
export { staticReferences } from './references.js';
export { bodyStatuses, type PossibleStatuses, writtenStatuses } from './problem-statuses.js';
export type { Reference } from './references.js';
export { equals, formatNumber } from './values.js';
export type { Vars } from './scope.js';
export type { UrlEncoding, UrlPlace, UrlShape, UrlSite } from './url.js';

export const DEFAULT_ROOTS: ReadonlySet<string> = new Set(['ctx', 'steps']);

export interface ExprCompileOptions {
  /** Root names allowed (default: ctx, steps); for-expression locals are handled inside. */
  roots?: ReadonlySet<string>;
  /** Default: the standard library. */
  functions?: FunctionTable;
}

export interface CompiledExpression {
  /** Throws ExprEvalError. */
  readonly evaluate: (vars: Readonly<Record<string, unknown>>) => unknown;
  readonly references: readonly Reference[];
  readonly range: Range;
  /** True when no references and only pure functions: the value was folded at compile time. */
  readonly constant: boolean;
  /** The folded value when `constant` (deep-frozen: it is shared by every evaluation). */
  readonly value?: unknown;
}

export function compileExpression(expr: Expression, options: ExprCompileOptions = {}): { compiled: CompiledExpression; diagnostics: Diagnostic[] } {
  const compiler = new ExprCompiler(options.functions ?? standardFunctions);
  const scope = ExprScope.root(options.roots ?? DEFAULT_ROOTS);
  const node = compiler.compile(expr, scope);
  return { compiled: finish(expr, compiler, scope, node), diagnostics: compiler.diagnostics };
}

/**
 * An expression whose value is a URL (the http step's `url`): its templates encode each value
 * computed per request for the part of the URL it lands in (url.ts). `shape` says where each went,
 * for the caller's checks.
 */
export function compileUrlExpression(
  expr: Expression,
  options: ExprCompileOptions = {},
): { compiled: CompiledExpression; diagnostics: Diagnostic[]; shape: UrlShape } {
  const compiler = new ExprCompiler(options.functions ?? standardFunctions);
  const scope = ExprScope.root(options.roots ?? DEFAULT_ROOTS);
  const shape = emptyUrlShape();
  const node = compiler.compileUrl(expr, scope, shape);
  return { compiled: finish(expr, compiler, scope, node), diagnostics: compiler.diagnostics, shape };
}

/** The compiled node as the evaluator callers get: a budget found (or made) only when something charges. */
function finish(expr: Expression, compiler: ExprCompiler, scope: ExprScope, node: Node): CompiledExpression {
  const references = staticReferences(expr);
  const frameSize = scope.layout.size;
  const fn = node.fn;
  let evaluate: (vars: Vars) => unknown;
  if (node.constant) {
    const value = node.value;
    evaluate = () => value;
  } else if (!compiler.charges) {
    // Reads only: nothing to charge, so no budget to find (budget.ts).
    evaluate = frameSize === 0 ? (vars) => fn(vars, EMPTY_FRAME, UNCHARGED) : (vars) => fn(vars, new Array<unknown>(frameSize), UNCHARGED);
  } else if (frameSize === 0) {
    evaluate = (vars) => fn(vars, EMPTY_FRAME, budgetOf(vars));
  } else {
    evaluate = (vars) => fn(vars, new Array<unknown>(frameSize), budgetOf(vars));
  }
  return {
    evaluate,
    references,
    range: expr.range,
    constant: node.constant,
    ...(node.constant ? { value: node.value } : {}),
  };
}
