/** Test helpers: parse and strip ranges so tree shapes can be compared with deepEqual. */
import assert from 'node:assert/strict';
import type { Diagnostic } from '../../src/diag/diagnostic.js';
import type { Range } from '../../src/diag/range.js';
import { parseExpression, parseFile, type Expression } from '../../src/hcl/index.js';

/** A deep copy without any `range` / `*Range` / `labelRanges` keys. */
export function shape(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (k, v) => (k === 'range' || k === 'labelRanges' || k.endsWith('Range') ? undefined : v)));
}

/** Parses an expression that must be valid, returning it. */
export function expr(src: string): Expression {
  const r = parseExpression(src, 'test.hcl');
  assert.deepEqual(
    r.diagnostics.map((d) => d.summary),
    [],
    `diagnostics for ${src}`,
  );
  return r.expr;
}

export function exprShape(src: string): unknown {
  return shape(expr(src));
}

/** Parses a file that must be valid. */
export function file(src: string) {
  const r = parseFile(src, 'test.hcl');
  assert.deepEqual(
    r.diagnostics.map((d) => `${d.summary}: ${d.detail}`),
    [],
    'diagnostics',
  );
  return r.file;
}

export function summaries(ds: readonly Diagnostic[]): string[] {
  return ds.map((d) => d.summary);
}

/** "line:col-line:col" (with bytes) for compact range assertions. */
export function at(r: Range | undefined): string {
  if (!r) return '-';
  return `${r.start.line}:${r.start.column}@${r.start.byte}-${r.end.line}:${r.end.column}@${r.end.byte}`;
}

/** Shorthands for expected shapes. */
export const v = (root: string, ...steps: unknown[]) => ({ kind: 'ScopeTraversal', root, steps });
export const attr = (name: string) => ({ kind: 'Attr', name });
export const idx = (key: string | number) => ({ kind: 'Index', key });
export const num = (value: number, raw = String(value)) => ({ kind: 'Literal', value, raw });
export const lit = (value: string | boolean | null) => ({ kind: 'Literal', value });
export const str = (value: string) => ({ kind: 'Template', parts: [{ kind: 'TemplateLiteral', value }], heredoc: false });
export const bin = (op: string, left: unknown, right: unknown) => ({ kind: 'BinaryOp', op, left, right });
