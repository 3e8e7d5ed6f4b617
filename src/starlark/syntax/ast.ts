// Syntax tree of a Starlark file, modelled on starlark-go's syntax package.
// The resolver annotates identifiers with a Binding and functions with a
// FunctionInfo; the compiler reads only those annotations.

import type { T } from './tokens.js';
import type { Pos } from './scanner.js';

export type Scope = 'local' | 'cell' | 'free' | 'global' | 'predeclared' | 'universal' | 'undefined';

/** Where a name lives at run time. `index` is the slot in locals/freevars/globals. */
export interface Binding {
  scope: Scope;
  index: number;
  first: Ident; // the first binding occurrence (for "declared at" messages)
}

export interface FunctionInfo {
  name: string;
  pos: Pos;
  params: Expr[];
  body: Stmt[];
  hasVarargs: boolean;
  hasKwargs: boolean;
  numKwonlyParams: number;
  locals: Binding[]; // parameters first, in order
  freevars: Binding[]; // bindings in the enclosing function this one captures
}

export interface Ident {
  kind: 'Ident';
  name: string;
  pos: Pos;
  binding?: Binding;
}
export interface Literal {
  kind: 'Literal';
  token: T;
  value: number | bigint | string;
  raw: string;
  pos: Pos;
  isFloat?: boolean;
}
export interface TupleExpr {
  kind: 'Tuple';
  list: Expr[];
  pos: Pos;
}
export interface ListExpr {
  kind: 'List';
  list: Expr[];
  pos: Pos;
}
export interface DictEntry {
  key: Expr;
  value: Expr;
  colon: Pos;
}
export interface DictExpr {
  kind: 'Dict';
  list: DictEntry[];
  pos: Pos;
}
export interface ParenExpr {
  kind: 'Paren';
  x: Expr;
  pos: Pos;
}
export interface UnaryExpr {
  kind: 'Unary';
  op: T;
  x: Expr | null;
  pos: Pos;
}
export interface BinaryExpr {
  kind: 'Binary';
  op: T;
  x: Expr;
  y: Expr;
  pos: Pos;
}
export interface CondExpr {
  kind: 'Cond';
  cond: Expr;
  t: Expr;
  f: Expr;
  pos: Pos;
}
export interface LambdaExpr {
  kind: 'Lambda';
  params: Expr[];
  body: Expr;
  pos: Pos;
  fn?: FunctionInfo;
}
export interface ForClause {
  kind: 'for';
  vars: Expr;
  x: Expr;
  pos: Pos;
}
export interface IfClause {
  kind: 'if';
  cond: Expr;
  pos: Pos;
}
export interface Comprehension {
  kind: 'Comp';
  curly: boolean;
  body: Expr | DictEntry;
  clauses: (ForClause | IfClause)[];
  pos: Pos;
}
export interface DotExpr {
  kind: 'Dot';
  x: Expr;
  name: string;
  namePos: Pos;
  pos: Pos;
}
export interface IndexExpr {
  kind: 'Index';
  x: Expr;
  y: Expr;
  pos: Pos;
}
export interface SliceExpr {
  kind: 'Slice';
  x: Expr;
  lo: Expr | null;
  hi: Expr | null;
  step: Expr | null;
  pos: Pos;
}
export interface CallExpr {
  kind: 'Call';
  fn: Expr;
  args: Expr[];
  pos: Pos;
  rparen: Pos;
}

export type Expr =
  | Ident
  | Literal
  | TupleExpr
  | ListExpr
  | DictExpr
  | ParenExpr
  | UnaryExpr
  | BinaryExpr
  | CondExpr
  | LambdaExpr
  | Comprehension
  | DotExpr
  | IndexExpr
  | SliceExpr
  | CallExpr;

export interface AssignStmt {
  kind: 'Assign';
  op: T;
  lhs: Expr;
  rhs: Expr;
  pos: Pos;
}
export interface ExprStmt {
  kind: 'Expr';
  x: Expr;
  pos: Pos;
}
export interface DefStmt {
  kind: 'Def';
  name: Ident;
  params: Expr[];
  body: Stmt[];
  pos: Pos;
  fn?: FunctionInfo;
}
export interface IfStmt {
  kind: 'If';
  cond: Expr;
  t: Stmt[];
  f: Stmt[];
  pos: Pos;
}
export interface ForStmt {
  kind: 'For';
  vars: Expr;
  x: Expr;
  body: Stmt[];
  pos: Pos;
}
export interface WhileStmt {
  kind: 'While';
  cond: Expr;
  body: Stmt[];
  pos: Pos;
}
export interface ReturnStmt {
  kind: 'Return';
  result: Expr | null;
  pos: Pos;
}
export interface BranchStmt {
  kind: 'Branch';
  tok: T;
  pos: Pos;
}
export interface LoadStmt {
  kind: 'Load';
  module: Literal;
  to: Ident[];
  from: Ident[];
  pos: Pos;
  rparen: Pos;
}

export type Stmt = AssignStmt | ExprStmt | DefStmt | IfStmt | ForStmt | WhileStmt | ReturnStmt | BranchStmt | LoadStmt;

export interface File {
  path: string;
  stmts: Stmt[];
  // set by the resolver
  module?: FunctionInfo; // the toplevel pseudo-function (its locals are the file-local load bindings)
  globals?: Binding[];
}

/** The start position of an expression (leftmost token), like syntax.Start. */
export function exprStart(e: Expr): Pos {
  switch (e.kind) {
    case 'Binary':
      return exprStart(e.x);
    case 'Cond':
      return exprStart(e.t);
    case 'Dot':
    case 'Index':
    case 'Slice':
      return exprStart(e.x);
    case 'Call':
      return exprStart(e.fn);
    case 'Tuple':
      return e.list.length > 0 && e.pos.line === 0 ? exprStart(e.list[0]!) : e.pos;
    default:
      return e.pos;
  }
}
