/**
 * The decoder's one door to the expression compiler (src/expr). Runtime expressions are compiled
 * once here with the pipeline's roots; configuration values (server, guards, connections, field
 * defaults...) are compiled with no roots and evaluated once at boot, so `env("X", "d")` works there.
 */
import { messageOf } from '../../graph/index.js';
import type { Expression } from '../hcl/index.js';
import { compileExpression, type CompiledExpression } from '../expr/index.js';
import type { DecodeScope } from './scope.js';

/** The names a pipeline expression may start with (DECISIONS.md §2). */
export const PIPELINE_ROOTS: ReadonlySet<string> = new Set(['ctx', 'steps']);
/**
 * A per-item expression of a stream step (`id = item.seq`): a function of the item alone, evaluated
 * by the encoder as each item is sent (`ctx` and `steps` are a boot error there, not a silent null).
 */
export const ITEM_ROOTS: ReadonlySet<string> = new Set(['item']);
const NO_ROOTS: ReadonlySet<string> = new Set();

/**
 * `ok` is false when the compiler reported an error. The compiled expression is returned anyway so
 * that its references are still checked: one run reports every problem of an expression, and no
 * model is built from a manifest with errors, so it never runs.
 */
export function compileRuntime(
  expr: Expression,
  scope: DecodeScope,
  roots: ReadonlySet<string> = PIPELINE_ROOTS,
): { compiled: CompiledExpression; ok: boolean } {
  const { compiled, diagnostics } = compileExpression(expr, { roots });
  scope.adopt(diagnostics);
  return { compiled, ok: !diagnostics.some((d) => d.severity === 'error') };
}

export type Static = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

const FAILED: Static = { ok: false };

/** Evaluates a configuration expression once, at boot; reports and returns `ok: false` on failure. */
export function evaluateStatic(expr: Expression, scope: DecodeScope): Static {
  const { compiled, diagnostics } = compileExpression(expr, { roots: NO_ROOTS });
  scope.adopt(diagnostics);
  if (diagnostics.some((d) => d.severity === 'error')) return FAILED;
  return evaluateCompiled(compiled, scope);
}

/** Evaluates a compiled expression that has no variables (`constant`, or a config expression). */
export function evaluateCompiled(compiled: CompiledExpression, scope: DecodeScope): Static {
  try {
    return { ok: true, value: normalise(compiled.evaluate({})) };
  } catch (e) {
    scope.error('Invalid value', compiled.range, {
      detail: `The expression could not be evaluated at boot: ${messageOf(e)}`,
    });
    return FAILED;
  }
}

/** Big integers from the evaluator become plain numbers when they fit, so readers see one shape. */
function normalise(v: unknown): unknown {
  if (typeof v === 'bigint' && v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER)) return Number(v);
  return v;
}
