/**
 * The syntax trees of the model's expressions. A compiled expression keeps its source range but not
 * its tree, and inferring a response body's schema needs the tree (`{ status = "ok" }` is an object
 * with a string member). The model keeps every manifest file's text, so each file is parsed again,
 * once, and its expressions are looked up by their exact range.
 */
import type { Range } from '../diag/index.js';
import { parseFile, type Body, type Expression, type TemplatePart } from '../hcl/index.js';

export class SyntaxIndex {
  private readonly byFile = new Map<string, Map<string, Expression>>();

  constructor(private readonly sources: ReadonlyMap<string, string>) {}

  /** The expression written at `range`, or undefined when the text is not at hand. */
  at(range: Range): Expression | undefined {
    let index = this.byFile.get(range.filename);
    if (index === undefined) {
      index = new Map();
      const text = this.sources.get(range.filename);
      if (text !== undefined) indexBody(parseFile(text, range.filename).file.body, index);
      this.byFile.set(range.filename, index);
    }
    return index.get(keyOf(range));
  }
}

function keyOf(range: Range): string {
  return `${range.start.byte}:${range.end.byte}`;
}

function indexBody(body: Body, index: Map<string, Expression>): void {
  for (const item of body.items) {
    if (item.kind === 'Attribute') indexExpr(item.expr, index);
    else indexBody(item.body, index);
  }
}

/** Outer expressions first: a range shared by a node and its only child names the outer one. */
function indexExpr(e: Expression, index: Map<string, Expression>): void {
  const key = keyOf(e.range);
  if (!index.has(key)) index.set(key, e);
  for (const child of childrenOf(e)) indexExpr(child, index);
}

function childrenOf(e: Expression): Expression[] {
  switch (e.kind) {
    case 'Literal':
    case 'ScopeTraversal':
    case 'SplatItem':
      return [];
    case 'Template':
      return partsChildren(e.parts);
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
  }
}

function partsChildren(parts: readonly TemplatePart[]): Expression[] {
  const out: Expression[] = [];
  for (const p of parts) {
    if (p.kind === 'TemplateInterp') out.push(p.expr);
    else if (p.kind === 'TemplateIf') out.push(p.cond, ...partsChildren(p.then), ...partsChildren(p.else));
    else if (p.kind === 'TemplateFor') out.push(p.collection, ...partsChildren(p.body));
  }
  return out;
}
