/** Walking the syntax tree of manifest files: the blocks under a body, the expressions under a block. */
import type { Block, Body, Expression, File, TemplatePart } from '../../hcl/index.js';

/** Every block under `body`, depth first, with its ancestors (outermost first). */
export function blocksUnder(body: Body, parents: readonly Block[] = []): { block: Block; parents: readonly Block[] }[] {
  const out: { block: Block; parents: readonly Block[] }[] = [];
  const visit = (b: Body, above: readonly Block[]): void => {
    for (const item of b.items) {
      if (item.kind !== 'Block') continue;
      out.push({ block: item, parents: above });
      if (item.body.items.some((i) => i.kind === 'Block')) visit(item.body, [...above, item]);
    }
  };
  visit(body, parents);
  return out;
}

/** The top-level blocks of every file. */
export function topBlocks(files: readonly File[]): { block: Block; file: File }[] {
  const out: { block: Block; file: File }[] = [];
  for (const file of files) for (const item of file.body.items) if (item.kind === 'Block') out.push({ block: item, file });
  return out;
}

/** Every expression node under `body` (attributes of nested blocks included), outer nodes first. */
export function expressionsUnder(body: Body): Expression[] {
  const out: Expression[] = [];
  const visit = (b: Body): void => {
    for (const item of b.items) {
      if (item.kind === 'Attribute') collect(item.expr, out);
      else visit(item.body);
    }
  };
  visit(body);
  return out;
}

function collect(e: Expression, out: Expression[]): void {
  // An explicit stack: deeply nested expressions (the parser allows them) must not overflow ours.
  const stack: Expression[] = [e];
  while (stack.length > 0) {
    const next = stack.pop()!;
    out.push(next);
    const children = childrenOf(next);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

function childrenOf(e: Expression): Expression[] {
  switch (e.kind) {
    case 'Template':
      return e.parts.flatMap(partExpressions);
    case 'RelativeTraversal':
      return [e.source];
    case 'Index':
      return [e.collection, e.key];
    case 'Splat':
      return [e.source, e.each];
    case 'FunctionCall':
      return [...e.args];
    case 'Conditional':
      return [e.cond, e.then, e.else];
    case 'BinaryOp':
      return [e.left, e.right];
    case 'UnaryOp':
      return [e.operand];
    case 'Tuple':
      return [...e.items];
    case 'ObjectCons':
      return e.items.flatMap((i) => [i.key, i.value]);
    case 'ForExpr':
      return [e.collection, ...(e.keyExpr ? [e.keyExpr] : []), e.valueExpr, ...(e.cond ? [e.cond] : [])];
    case 'Parenthesized':
      return [e.expr];
    default:
      return [];
  }
}

function partExpressions(p: TemplatePart): Expression[] {
  switch (p.kind) {
    case 'TemplateLiteral':
      return [];
    case 'TemplateInterp':
      return [p.expr];
    case 'TemplateIf':
      return [p.cond, ...p.then.flatMap(partExpressions), ...p.else.flatMap(partExpressions)];
    case 'TemplateFor':
      return [p.collection, ...p.body.flatMap(partExpressions)];
  }
}

/** A literal string (a template without interpolation), or undefined. */
export function literalString(e: Expression): string | undefined {
  if (e.kind !== 'Template') return undefined;
  let out = '';
  for (const p of e.parts) {
    if (p.kind !== 'TemplateLiteral') return undefined;
    out += p.value;
  }
  return out;
}
