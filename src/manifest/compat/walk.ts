/** Walking the syntax tree of manifest files: the blocks under a body, the expressions under a block. */
import type { Block, Body, Expression, File, TemplatePart } from '../../hcl/index.js';

/** Every block under `body`, depth first, with its ancestors (outermost first). */
export function* blocksUnder(body: Body, parents: readonly Block[] = []): Generator<{ block: Block; parents: readonly Block[] }> {
  for (const item of body.items) {
    if (item.kind !== 'Block') continue;
    yield { block: item, parents };
    yield* blocksUnder(item.body, [...parents, item]);
  }
}

/** The top-level blocks of every file. */
export function* topBlocks(files: readonly File[]): Generator<{ block: Block; file: File }> {
  for (const file of files) for (const item of file.body.items) if (item.kind === 'Block') yield { block: item, file };
}

/** Every expression node under `body` (attributes of nested blocks included), outer nodes first. */
export function* expressionsUnder(body: Body): Generator<Expression> {
  for (const item of body.items) {
    if (item.kind === 'Attribute') yield* expressionTree(item.expr);
    else yield* expressionsUnder(item.body);
  }
}

export function* expressionTree(e: Expression): Generator<Expression> {
  yield e;
  for (const child of childrenOf(e)) yield* expressionTree(child);
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
