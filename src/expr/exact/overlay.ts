/**
 * Exact mode for the conformance runner: recomputes the purely numeric parts of an expression
 * (number literals from their source text, + - * / %, unary minus) with 512-bit floats, as HCL does,
 * and lays them over the value our evaluator produced. Everything else keeps its evaluated value.
 * The product itself stays on JS doubles (documented in src/expr/README.md).
 */
import type * as ast from '../../hcl/index.js';
import { BigFloat } from './bigfloat.js';

function numeric(e: ast.Expression): BigFloat | undefined {
  switch (e.kind) {
    case 'Literal':
      if (typeof e.value !== 'number') return undefined;
      return BigFloat.parse(e.raw ?? String(e.value));
    case 'Parenthesized':
      return numeric(e.expr);
    case 'UnaryOp': {
      if (e.op !== '-') return undefined;
      const x = numeric(e.operand);
      return x?.negate();
    }
    case 'BinaryOp': {
      if (!['+', '-', '*', '/', '%'].includes(e.op)) return undefined;
      const a = numeric(e.left);
      const b = numeric(e.right);
      if (!a || !b) return undefined;
      switch (e.op) {
        case '+':
          return a.add(b);
        case '-':
          return a.sub(b);
        case '*':
          return a.mul(b);
        case '/':
          return b.isZero ? undefined : a.div(b);
        default:
          return a.mod(b);
      }
    }
    default:
      return undefined;
  }
}

/** `value` with exact numbers where the expression computes them from literals alone. */
export function exactOverlay(e: ast.Expression, value: unknown): unknown {
  const n = numeric(e);
  if (n) return n;
  if (e.kind === 'Parenthesized') return exactOverlay(e.expr, value);
  if (e.kind === 'Tuple' && Array.isArray(value) && value.length === e.items.length) {
    return e.items.map((item, i) => exactOverlay(item, value[i]));
  }
  if (e.kind === 'ObjectCons' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const item of e.items) {
      const key = staticKey(item);
      if (key !== undefined && Object.hasOwn(out, key)) out[key] = exactOverlay(item.value, out[key]);
    }
    return out;
  }
  return value;
}

function staticKey(item: ast.ObjectItem): string | undefined {
  const k = item.key;
  if (k.kind === 'Literal' && (item.bareKey || typeof k.value === 'string')) return String(k.value);
  if (item.bareKey && k.kind === 'ScopeTraversal' && k.steps.length === 0) return k.root;
  if (k.kind === 'Template' && k.parts.length === 1 && k.parts[0]!.kind === 'TemplateLiteral') return k.parts[0]!.value;
  return undefined;
}

export { BigFloat };
