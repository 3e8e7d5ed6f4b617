/**
 * The HCL native-syntax tree (hclsyntax spec). Every node carries its source range.
 * This file is the contract between the parser (src/hcl/parser) and its consumers
 * (src/expr, src/manifest): change it only by adding, never by renaming.
 *
 * Strip markers (`~`) in templates are applied by the parser, so consumers never see them.
 * Heredocs and quoted strings both become `Template` nodes.
 */
import type { Range } from '../diag/index.js';

// ---------------------------------------------------------------- structure

/** A body keeps its attributes and blocks in source order. */
export interface Body {
  readonly kind: 'Body';
  readonly items: readonly (Attribute | Block)[];
  readonly range: Range;
}

export interface Attribute {
  readonly kind: 'Attribute';
  readonly name: string;
  readonly expr: Expression;
  /** The whole `name = expr` span. */
  readonly range: Range;
  readonly nameRange: Range;
}

export interface Block {
  readonly kind: 'Block';
  readonly type: string;
  /** Labels, whether written quoted or as identifiers. */
  readonly labels: readonly string[];
  readonly labelRanges: readonly Range[];
  readonly body: Body;
  /** From the type keyword to the closing brace. */
  readonly range: Range;
  readonly typeRange: Range;
  readonly openBraceRange: Range;
  readonly closeBraceRange: Range;
}

/** A parsed file. */
export interface File {
  readonly filename: string;
  readonly source: string;
  readonly body: Body;
}

// ---------------------------------------------------------------- expressions

export type Expression =
  | Literal
  | Template
  | ScopeTraversal
  | RelativeTraversal
  | Index
  | Splat
  | SplatItem
  | FunctionCall
  | Conditional
  | BinaryOp
  | UnaryOp
  | Tuple
  | ObjectCons
  | ForExpr
  | Parenthesized;

/**
 * A literal number, bool or null (and the literal strings inside templates).
 * Numbers keep their source text in `raw` so an exact evaluator can use arbitrary precision.
 */
export interface Literal {
  readonly kind: 'Literal';
  readonly value: string | number | boolean | null;
  readonly raw?: string;
  /**
   * Set on the placeholder the parser leaves where an expression could not be parsed (hclsyntax
   * uses a DynamicVal literal there). It only appears alongside an error diagnostic.
   */
  readonly invalid?: boolean;
  readonly range: Range;
}

/**
 * A quoted string or heredoc. `parts` are literal strings, interpolations and directives.
 * A template of exactly one interpolation and nothing else (`"${x}"`) yields x's value unconverted
 * (hclsyntax's TemplateWrapExpr); consumers detect that with `isWrap`.
 */
export interface Template {
  readonly kind: 'Template';
  readonly parts: readonly TemplatePart[];
  readonly heredoc: boolean;
  readonly range: Range;
}

export type TemplatePart = TemplateLiteral | TemplateInterp | TemplateIf | TemplateFor;

export interface TemplateLiteral {
  readonly kind: 'TemplateLiteral';
  readonly value: string;
  readonly range: Range;
}

export interface TemplateInterp {
  readonly kind: 'TemplateInterp';
  readonly expr: Expression;
  readonly range: Range;
}

export interface TemplateIf {
  readonly kind: 'TemplateIf';
  readonly cond: Expression;
  readonly then: readonly TemplatePart[];
  readonly else: readonly TemplatePart[];
  readonly range: Range;
}

export interface TemplateFor {
  readonly kind: 'TemplateFor';
  readonly keyVar?: string;
  readonly valueVar: string;
  readonly collection: Expression;
  readonly body: readonly TemplatePart[];
  readonly range: Range;
}

/** One step of a traversal: `.name` or `[<literal>]` (legacy `.0` index too). */
export type Traverser =
  | { readonly kind: 'Attr'; readonly name: string; readonly range: Range }
  | { readonly kind: 'Index'; readonly key: string | number; readonly range: Range };

/** `root.a.b[0]`: a variable and literal steps (hclsyntax ScopeTraversalExpr). */
export interface ScopeTraversal {
  readonly kind: 'ScopeTraversal';
  readonly root: string;
  readonly rootRange: Range;
  readonly steps: readonly Traverser[];
  readonly range: Range;
}

/** `expr.a[0]` where expr is not a plain variable, e.g. `f(x).a` (hclsyntax RelativeTraversalExpr). */
export interface RelativeTraversal {
  readonly kind: 'RelativeTraversal';
  readonly source: Expression;
  readonly steps: readonly Traverser[];
  readonly range: Range;
}

/** `collection[key]` with a non-literal key. */
export interface Index {
  readonly kind: 'Index';
  readonly collection: Expression;
  readonly key: Expression;
  readonly range: Range;
}

/**
 * `source[*].a.b` (full splat) or `source.*.a` (attribute-only splat). `each` is evaluated once
 * per element with a `SplatItem` node standing for the element (hclsyntax SplatExpr/AnonSymbolExpr).
 */
export interface Splat {
  readonly kind: 'Splat';
  readonly source: Expression;
  readonly each: Expression;
  readonly full: boolean;
  readonly range: Range;
}

export interface SplatItem {
  readonly kind: 'SplatItem';
  readonly range: Range;
}

export interface FunctionCall {
  readonly kind: 'FunctionCall';
  readonly name: string;
  readonly nameRange: Range;
  readonly args: readonly Expression[];
  /** `f(a, list...)`: the last argument is expanded. */
  readonly expandFinal: boolean;
  readonly range: Range;
}

export interface Conditional {
  readonly kind: 'Conditional';
  readonly cond: Expression;
  readonly then: Expression;
  readonly else: Expression;
  readonly range: Range;
}

export type BinaryOperator = '||' | '&&' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%';

export interface BinaryOp {
  readonly kind: 'BinaryOp';
  readonly op: BinaryOperator;
  readonly left: Expression;
  readonly right: Expression;
  readonly range: Range;
}

export interface UnaryOp {
  readonly kind: 'UnaryOp';
  readonly op: '!' | '-';
  readonly operand: Expression;
  readonly range: Range;
}

export interface Tuple {
  readonly kind: 'Tuple';
  readonly items: readonly Expression[];
  readonly range: Range;
}

/**
 * `{ key = value, ... }`. A bare identifier key becomes a string `Literal` with `bareKey` set
 * (hclsyntax ObjectConsKeyExpr); a parenthesized key is an expression.
 */
export interface ObjectCons {
  readonly kind: 'ObjectCons';
  readonly items: readonly ObjectItem[];
  readonly range: Range;
}

export interface ObjectItem {
  readonly key: Expression;
  readonly bareKey: boolean;
  readonly value: Expression;
  readonly range: Range;
}

/**
 * `[for k, v in coll : expr if cond]` (tuple form, keyExpr absent) or
 * `{for k, v in coll : kexpr => vexpr... if cond}` (object form; `group` for `...`).
 */
export interface ForExpr {
  readonly kind: 'ForExpr';
  readonly keyVar?: string;
  readonly valueVar: string;
  readonly collection: Expression;
  readonly keyExpr?: Expression;
  readonly valueExpr: Expression;
  readonly cond?: Expression;
  readonly group: boolean;
  readonly isObject: boolean;
  readonly range: Range;
}

export interface Parenthesized {
  readonly kind: 'Parenthesized';
  readonly expr: Expression;
  readonly range: Range;
}

/** A single-interpolation template (`"${x}"`) evaluates to x unconverted. */
export function isWrap(t: Template): boolean {
  return !t.heredoc && t.parts.length === 1 && t.parts[0]!.kind === 'TemplateInterp';
}
