/**
 * Static references: every traversal of a root variable an expression makes, with the steps known at
 * compile time (`steps.a.rows[0]` -> root steps, path ["a", "rows", 0]; `steps.a[x].b` -> ["a", null, "b"]).
 * The manifest layer uses them to check at boot that a step exists and has run, or that a parameter is
 * declared. Names bound by `for` expressions and directives are locals, not references.
 */
import type { Range } from '../diag/index.js';
import type * as ast from '../hcl/index.js';

export interface Reference {
  /** 'ctx' | 'steps' | any other root name. */
  root: string;
  /** Static traversal steps after the root; null where dynamic (e.g. steps.a[x]). */
  path: (string | number | null)[];
  range: Range;
}

type Locals = ReadonlySet<string>;

interface Chain {
  root: string;
  path: (string | number | null)[];
  /** Dynamic key expressions met along the chain: their own references count too. */
  keys: ast.Expression[];
}

function stepKey(s: ast.Traverser): string | number {
  return s.kind === 'Attr' ? s.name : s.key;
}

function staticKey(e: ast.Expression): string | number | null {
  if (e.kind === 'Literal' && (typeof e.value === 'string' || typeof e.value === 'number')) return e.value;
  if (e.kind === 'Template' && e.parts.length === 1 && e.parts[0]!.kind === 'TemplateLiteral') return e.parts[0]!.value;
  if (e.kind === 'Template' && e.parts.length === 0) return '';
  return null;
}

/** The reference chain an expression is, if it is one. */
function chainOf(e: ast.Expression, locals: Locals): Chain | undefined {
  switch (e.kind) {
    case 'ScopeTraversal':
      return locals.has(e.root) ? undefined : { root: e.root, path: e.steps.map(stepKey), keys: [] };
    case 'Parenthesized':
      return chainOf(e.expr, locals);
    case 'RelativeTraversal': {
      const base = chainOf(e.source, locals);
      return base && { ...base, path: [...base.path, ...e.steps.map(stepKey)] };
    }
    case 'Index': {
      const base = chainOf(e.collection, locals);
      if (!base) return undefined;
      const k = staticKey(e.key);
      return { root: base.root, path: [...base.path, k], keys: k === null ? [...base.keys, e.key] : base.keys };
    }
    case 'Splat': {
      const base = chainOf(e.source, locals);
      if (!base) return undefined;
      const item = itemChain(e.each);
      if (!item) return { root: base.root, path: [...base.path, null], keys: [...base.keys, e.each] };
      return { root: base.root, path: [...base.path, null, ...item.path], keys: [...base.keys, ...item.keys] };
    }
    default:
      return undefined;
  }
}

/** The steps a splat applies to its item (`[*].a.b` -> ["a", "b"]). */
function itemChain(e: ast.Expression): { path: (string | number | null)[]; keys: ast.Expression[] } | undefined {
  switch (e.kind) {
    case 'SplatItem':
      return { path: [], keys: [] };
    case 'RelativeTraversal': {
      const base = itemChain(e.source);
      return base && { path: [...base.path, ...e.steps.map(stepKey)], keys: base.keys };
    }
    case 'Index': {
      const base = itemChain(e.collection);
      if (!base) return undefined;
      const k = staticKey(e.key);
      return { path: [...base.path, k], keys: k === null ? [...base.keys, e.key] : base.keys };
    }
    default:
      return undefined;
  }
}

function walk(e: ast.Expression, locals: Locals, out: Reference[]): void {
  const chain = chainOf(e, locals);
  if (chain) {
    out.push({ root: chain.root, path: chain.path, range: e.range });
    for (const k of chain.keys) walk(k, locals, out);
    return;
  }
  switch (e.kind) {
    case 'Literal':
    case 'SplatItem':
    case 'ScopeTraversal':
      return;
    case 'Parenthesized':
      return walk(e.expr, locals, out);
    case 'Template':
      return walkParts(e.parts, locals, out);
    case 'RelativeTraversal':
      return walk(e.source, locals, out);
    case 'Index':
      walk(e.collection, locals, out);
      return walk(e.key, locals, out);
    case 'Splat':
      walk(e.source, locals, out);
      return walk(e.each, locals, out);
    case 'FunctionCall':
      for (const a of e.args) walk(a, locals, out);
      return;
    case 'Conditional':
      walk(e.cond, locals, out);
      walk(e.then, locals, out);
      return walk(e.else, locals, out);
    case 'BinaryOp':
      walk(e.left, locals, out);
      return walk(e.right, locals, out);
    case 'UnaryOp':
      return walk(e.operand, locals, out);
    case 'Tuple':
      for (const i of e.items) walk(i, locals, out);
      return;
    case 'ObjectCons':
      for (const item of e.items) {
        if (!item.bareKey) walk(item.key, locals, out);
        walk(item.value, locals, out);
      }
      return;
    case 'ForExpr': {
      walk(e.collection, locals, out);
      const inner = new Set(locals);
      if (e.keyVar !== undefined) inner.add(e.keyVar);
      inner.add(e.valueVar);
      if (e.keyExpr) walk(e.keyExpr, inner, out);
      walk(e.valueExpr, inner, out);
      if (e.cond) walk(e.cond, inner, out);
      return;
    }
  }
}

function walkParts(parts: readonly ast.TemplatePart[], locals: Locals, out: Reference[]): void {
  for (const p of parts) {
    switch (p.kind) {
      case 'TemplateLiteral':
        break;
      case 'TemplateInterp':
        walk(p.expr, locals, out);
        break;
      case 'TemplateIf':
        walk(p.cond, locals, out);
        walkParts(p.then, locals, out);
        walkParts(p.else, locals, out);
        break;
      case 'TemplateFor': {
        walk(p.collection, locals, out);
        const inner = new Set(locals);
        if (p.keyVar !== undefined) inner.add(p.keyVar);
        inner.add(p.valueVar);
        walkParts(p.body, inner, out);
        break;
      }
    }
  }
}

/** Every root-variable reference in the expression, in source order. */
export function staticReferences(expr: ast.Expression): Reference[] {
  const out: Reference[] = [];
  walk(expr, new Set(), out);
  return out;
}
