import assert from 'node:assert/strict';
import type { Diagnostic } from '../../src/diag/index.js';
import { parseExpression } from '../../src/hcl/index.js';
import { compileExpression, ExprEvalError, type ExprCompileOptions, type CompiledExpression } from '../../src/expr/index.js';

/** Parses and compiles; the parse must be clean. */
export function compileSrc(src: string, options?: ExprCompileOptions): { compiled: CompiledExpression; diagnostics: Diagnostic[] } {
  const { expr, diagnostics } = parseExpression(src, 'test.hcl');
  assert.deepEqual(diagnostics, [], `parse errors in ${src}`);
  return compileExpression(expr, options);
}

/** Compiles (no diagnostics allowed) and returns the compiled expression. */
export function compiled(src: string, options?: ExprCompileOptions): CompiledExpression {
  const { compiled: c, diagnostics } = compileSrc(src, options);
  assert.deepEqual(
    diagnostics.map((d) => `${d.summary}: ${d.detail}`),
    [],
    `diagnostics for ${src}`,
  );
  return c;
}

export function run(src: string, vars: Record<string, unknown> = {}, options?: ExprCompileOptions): unknown {
  return compiled(src, options).evaluate(vars);
}

/** Evaluates expecting an ExprEvalError; returns it. */
export function runError(src: string, vars: Record<string, unknown> = {}, options?: ExprCompileOptions): ExprEvalError {
  const c = compiled(src, options);
  try {
    c.evaluate(vars);
  } catch (e) {
    assert.ok(e instanceof ExprEvalError, `expected ExprEvalError, got ${String(e)}`);
    return e;
  }
  assert.fail(`expected ${src} to fail`);
}

/** Compile-time diagnostics of an expression. */
export function diags(src: string, options?: ExprCompileOptions): Diagnostic[] {
  return compileSrc(src, options).diagnostics;
}

/** The source text a range covers (single-line test sources). */
export function slice(src: string, d: { start: { column: number }; end: { column: number } }): string {
  return src.slice(d.start.column - 1, d.end.column - 1);
}
