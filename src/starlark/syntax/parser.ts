// Recursive-descent parser for Starlark: a port of starlark-go's syntax/parse.go
// (same grammar, same error messages and positions).

import { T, tokenGoString, tokenNames } from './tokens.js';
import { Scanner, type LinePlace, type Pos, type TokenValue } from './scanner.js';
import type * as A from './ast.js';
import { exprStart } from './ast.js';
import { decodeUTF8 } from '../values/utf8.js';

const preclevels: T[][] = [
  [T.OR],
  [T.AND],
  [T.NOT],
  [T.EQL, T.NEQ, T.LT, T.GT, T.LE, T.GE, T.IN, T.NOT_IN],
  [T.PIPE],
  [T.CIRCUMFLEX],
  [T.AMP],
  [T.LTLT, T.GTGT],
  [T.MINUS, T.PLUS],
  [T.STAR, T.PERCENT, T.SLASH, T.SLASHSLASH],
];
const precedence: number[] = new Array(T.YIELD + 1).fill(-1);
preclevels.forEach((toks, level) => {
  for (const t of toks) precedence[t] = level;
});

/**
 * How deep a program may nest: every phase recurses over the tree, so past the JS stack it would end
 * in a RangeError; the parser refuses it with a located error instead (as CPython's "too many nested
 * parentheses"). NESTING counts brackets, lambdas, conditionals, unary operators and statement
 * blocks (some twenty parser frames a level); CHAIN the tree's depth along chains the parser builds
 * in a loop (`a + b + c`, `x[0][0]`, `a.b.c`), a frame or two per link in later phases.
 */
export const MAX_NESTING = 100;
export const MAX_CHAIN = 1000;

function terminatesExprList(t: T): boolean {
  return t === T.EOF || t === T.NEWLINE || t === T.EQ || t === T.RBRACE || t === T.RBRACK || t === T.RPAREN || t === T.SEMI;
}

class Parser {
  tok: number = T.ILLEGAL;
  /** the current token (a method, so that TS does not narrow it across next()) */
  cur(): T {
    return this.tok;
  }
  val: TokenValue = { raw: '', int: 0, float: 0, str: '', pos: { line: 0, col: 0 } };
  constructor(public sc: Scanner) {}

  /** Levels of nesting entered (see MAX_NESTING). */
  nesting = 0;
  /** Depth of the expression tree being built, chain links included (see MAX_CHAIN). */
  chain = 0;

  /** Enter one level of nesting at pos: a located error beyond MAX_NESTING. The caller leaves it with `this.nesting--; this.chain--` (an error ends the parse, so no finally). */
  enter(pos: Pos): void {
    if (++this.nesting > MAX_NESTING)
      this.err(pos, `program nested too deeply (more than ${MAX_NESTING} levels of brackets, blocks, lambdas or unary operators)`);
    this.link(pos);
  }

  /** One more link of a chain (an operator, index, call or attribute) at pos. The chain's parser restores `this.chain` when it returns. */
  link(pos: Pos): void {
    if (++this.chain > MAX_CHAIN) this.err(pos, `expression nested too deeply (more than ${MAX_CHAIN} operators, calls, indexes or attributes in a chain)`);
  }

  /** Advance; returns the position of the token just consumed. */
  next(): Pos {
    const old = this.val.pos;
    this.val = { raw: '', int: 0, float: 0, str: '', pos: old };
    this.tok = this.sc.next(this.val);
    return old;
  }

  err(pos: Pos, msg: string): never {
    this.sc.error(pos, msg);
  }

  parseFile(): A.Stmt[] {
    const stmts: A.Stmt[] = [];
    while (this.cur() !== T.EOF) {
      if (this.cur() === T.NEWLINE) {
        this.next();
        continue;
      }
      this.parseStmt(stmts);
    }
    return stmts;
  }

  parseStmt(stmts: A.Stmt[]): void {
    switch (this.cur()) {
      case T.DEF:
        stmts.push(this.parseDef());
        return;
      case T.IF:
        stmts.push(this.parseIf());
        return;
      case T.FOR:
        stmts.push(this.parseFor());
        return;
      case T.WHILE: {
        const pos = this.next();
        const cond = this.parseTest();
        this.consume(T.COLON);
        stmts.push({ kind: 'While', cond, body: this.parseSuite(), pos });
        return;
      }
    }
    this.parseSimpleStmt(stmts, true);
  }

  parseDef(): A.DefStmt {
    const pos = this.next();
    const name = this.parseIdent();
    this.consume(T.LPAREN);
    const params = this.parseParams();
    this.consume(T.RPAREN);
    this.consume(T.COLON);
    const body = this.parseSuite();
    return { kind: 'Def', name, params, body, pos };
  }

  parseIf(): A.IfStmt {
    const pos = this.next();
    const cond = this.parseTest();
    this.consume(T.COLON);
    const root: A.IfStmt = { kind: 'If', cond, t: this.parseSuite(), f: [], pos };
    let tail = root;
    // each elif is an if statement inside the previous one's else branch: a chain
    const chain = this.chain;
    while (this.cur() === T.ELIF) {
      this.link(this.val.pos);
      const epos = this.next();
      const c = this.parseTest();
      this.consume(T.COLON);
      const elif: A.IfStmt = { kind: 'If', cond: c, t: this.parseSuite(), f: [], pos: epos };
      tail.f = [elif];
      tail = elif;
    }
    if (this.cur() === T.ELSE) {
      this.next();
      this.consume(T.COLON);
      tail.f = this.parseSuite();
    }
    this.chain = chain;
    return root;
  }

  parseFor(): A.ForStmt {
    const pos = this.next();
    const vars = this.parseForLoopVariables();
    this.consume(T.IN);
    const x = this.parseExpr(false);
    this.consume(T.COLON);
    return { kind: 'For', vars, x, body: this.parseSuite(), pos };
  }

  parseForLoopVariables(): A.Expr {
    const v = this.parsePrimaryWithSuffix();
    if (this.cur() !== T.COMMA) return v;
    const list = [v];
    while (this.cur() === T.COMMA) {
      this.next();
      if (terminatesExprList(this.cur())) break;
      list.push(this.parsePrimaryWithSuffix());
    }
    return { kind: 'Tuple', list, pos: exprStart(v) };
  }

  parseSimpleStmt(stmts: A.Stmt[], consumeNL: boolean): void {
    for (;;) {
      stmts.push(this.parseSmallStmt());
      if (this.cur() !== T.SEMI) break;
      this.next();
      if (this.cur() === T.NEWLINE || this.cur() === T.EOF) break;
    }
    if (this.cur() !== T.EOF && consumeNL) this.consume(T.NEWLINE);
  }

  parseSmallStmt(): A.Stmt {
    switch (this.cur()) {
      case T.RETURN: {
        const pos = this.next();
        let result: A.Expr | null = null;
        if (this.cur() !== T.EOF && this.cur() !== T.NEWLINE && this.cur() !== T.SEMI) result = this.parseExpr(false);
        return { kind: 'Return', result, pos };
      }
      case T.BREAK:
      case T.CONTINUE:
      case T.PASS: {
        const tok = this.cur();
        return { kind: 'Branch', tok, pos: this.next() };
      }
      case T.LOAD:
        return this.parseLoad();
    }
    const x = this.parseExpr(false);
    switch (this.cur()) {
      case T.EQ:
      case T.PLUS_EQ:
      case T.MINUS_EQ:
      case T.STAR_EQ:
      case T.SLASH_EQ:
      case T.SLASHSLASH_EQ:
      case T.PERCENT_EQ:
      case T.AMP_EQ:
      case T.PIPE_EQ:
      case T.CIRCUMFLEX_EQ:
      case T.LTLT_EQ:
      case T.GTGT_EQ: {
        const op = this.cur();
        const pos = this.next();
        const rhs = this.parseExpr(false);
        return { kind: 'Assign', op, lhs: x, rhs, pos };
      }
    }
    return { kind: 'Expr', x, pos: exprStart(x) };
  }

  parseLoad(): A.LoadStmt {
    const pos = this.next();
    const lparen = this.consume(T.LPAREN);
    if (this.cur() !== T.STRING) this.err(this.sc.pos, 'first operand of load statement must be a string literal');
    const module = this.parsePrimary() as A.Literal;
    const to: A.Ident[] = [],
      from: A.Ident[] = [];
    while (this.cur() !== T.RPAREN && this.cur() !== T.EOF) {
      this.consume(T.COMMA);
      if (this.cur() === T.RPAREN) break;
      if (this.cur() === T.STRING) {
        const lit = this.parsePrimary() as A.Literal;
        const id: A.Ident = { kind: 'Ident', name: decodeUTF8(lit.value as string), pos: { line: lit.pos.line, col: lit.pos.col + 1 } };
        to.push(id);
        from.push(id);
      } else if (this.cur() === T.IDENT) {
        const id = this.parseIdent();
        to.push(id);
        if (this.cur() !== T.EQ) this.err(this.sc.pos, `load operand must be "${id.name}" or ${id.name}="originalname" (want '=' after ${id.name})`);
        this.consume(T.EQ);
        if (this.cur() !== T.STRING) this.err(this.sc.pos, `original name of loaded symbol must be quoted: ${id.name}="originalname"`);
        const lit = this.parsePrimary() as A.Literal;
        from.push({ kind: 'Ident', name: decodeUTF8(lit.value as string), pos: { line: lit.pos.line, col: lit.pos.col + 1 } });
      } else {
        this.err(this.sc.pos, `load operand must be "name" or localname="name" (got ${tokenGoString(this.cur())})`);
      }
    }
    const rparen = this.consume(T.RPAREN);
    if (to.length === 0) this.err(lparen, 'load statement must import at least 1 symbol');
    return { kind: 'Load', module, to, from, pos, rparen };
  }

  parseSuite(): A.Stmt[] {
    this.enter(this.val.pos);
    const stmts = this.parseSuiteNested();
    this.nesting--;
    this.chain--;
    return stmts;
  }

  parseSuiteNested(): A.Stmt[] {
    if (this.cur() === T.NEWLINE) {
      this.next();
      this.consume(T.INDENT);
      const stmts: A.Stmt[] = [];
      while (this.cur() !== T.OUTDENT && this.cur() !== T.EOF) this.parseStmt(stmts);
      this.consume(T.OUTDENT);
      return stmts;
    }
    const stmts: A.Stmt[] = [];
    this.parseSimpleStmt(stmts, true);
    return stmts;
  }

  parseIdent(): A.Ident {
    if (this.cur() !== T.IDENT) this.err(this.sc.pos, 'not an identifier');
    const id: A.Ident = { kind: 'Ident', name: this.val.raw, pos: this.val.pos };
    this.next();
    return id;
  }

  consume(t: T): Pos {
    if (this.cur() !== t) this.err(this.sc.pos, `got ${tokenGoString(this.cur())}, want ${tokenGoString(t)}`);
    return this.next();
  }

  parseParams(): A.Expr[] {
    const params: A.Expr[] = [];
    while (this.cur() !== T.RPAREN && this.cur() !== T.COLON && this.cur() !== T.EOF) {
      if (params.length > 0) this.consume(T.COMMA);
      if (this.cur() === T.RPAREN) break;
      if (this.cur() === T.STAR || this.cur() === T.STARSTAR) {
        const op = this.cur();
        const pos = this.next();
        let x: A.Expr | null = null;
        if (op === T.STARSTAR || this.cur() === T.IDENT) x = this.parseIdent();
        params.push({ kind: 'Unary', op, x, pos });
        continue;
      }
      const id = this.parseIdent();
      if (this.cur() === T.EQ) {
        const pos = this.next();
        params.push({ kind: 'Binary', op: T.EQ, x: id, y: this.parseTest(), pos });
        continue;
      }
      params.push(id);
    }
    return params;
  }

  parseExpr(inParens: boolean): A.Expr {
    const x = this.parseTest();
    if (this.cur() !== T.COMMA) return x;
    return { kind: 'Tuple', list: this.parseExprs([x], inParens), pos: exprStart(x) };
  }

  parseExprs(exprs: A.Expr[], allowTrailingComma: boolean): A.Expr[] {
    while (this.cur() === T.COMMA) {
      const pos = this.next();
      if (terminatesExprList(this.cur())) {
        if (!allowTrailingComma) this.err(pos, 'unparenthesized tuple with trailing comma');
        break;
      }
      exprs.push(this.parseTest());
    }
    return exprs;
  }

  parseTest(): A.Expr {
    this.enter(this.val.pos);
    const x = this.parseTestNested();
    this.nesting--;
    this.chain--;
    return x;
  }

  parseTestNested(): A.Expr {
    if (this.cur() === T.LAMBDA) return this.parseLambda(true);
    const x = this.parseTestPrec(0);
    if (this.cur() === T.IF) {
      const ifpos = this.next();
      const cond = this.parseTestPrec(0);
      if (this.cur() !== T.ELSE) this.err(ifpos, 'conditional expression without else clause');
      this.next();
      const f = this.parseTest();
      return { kind: 'Cond', cond, t: x, f, pos: ifpos };
    }
    return x;
  }

  parseTestNoCond(): A.Expr {
    if (this.cur() === T.LAMBDA) return this.parseLambda(false);
    return this.parseTestPrec(0);
  }

  parseLambda(allowCond: boolean): A.Expr {
    const pos = this.next();
    let params: A.Expr[] = [];
    if (this.cur() !== T.COLON) params = this.parseParams();
    this.consume(T.COLON);
    const body = allowCond ? this.parseTest() : this.parseTestNoCond();
    return { kind: 'Lambda', params, body, pos };
  }

  parseTestPrec(prec: number): A.Expr {
    if (prec >= preclevels.length) return this.parsePrimaryWithSuffix();
    if (this.cur() === T.NOT && prec === precedence[T.NOT]) {
      const pos = this.next();
      this.enter(pos);
      const x = this.parseTestPrec(prec);
      this.nesting--;
      this.chain--;
      return { kind: 'Unary', op: T.NOT, x, pos };
    }
    return this.parseBinop(prec);
  }

  parseBinop(prec: number): A.Expr {
    const chain = this.chain;
    let x = this.parseTestPrec(prec + 1);
    for (let first = true; ; first = false) {
      if (this.cur() === T.NOT) {
        this.next();
        if (this.cur() !== T.IN) this.err(this.sc.pos, `got ${tokenGoString(this.cur())}, want in`);
        this.tok = T.NOT_IN;
      }
      const opprec = precedence[this.cur()]!;
      if (opprec < prec) {
        this.chain = chain;
        return x;
      }
      if (!first && opprec === precedence[T.EQL]) {
        this.err(this.sc.pos, `${tokenNames[(x as A.BinaryExpr).op]} does not associate with ${tokenNames[this.cur()]} (use parens)`);
      }
      const op = this.cur();
      this.link(this.val.pos);
      const pos = this.next();
      const y = this.parseTestPrec(opprec + 1);
      x = { kind: 'Binary', op, x, y, pos };
    }
  }

  parsePrimaryWithSuffix(): A.Expr {
    const chain = this.chain;
    let x = this.parsePrimary();
    for (;;) {
      if (this.cur() === T.DOT || this.cur() === T.LBRACK || this.cur() === T.LPAREN) this.link(this.val.pos);
      switch (this.cur()) {
        case T.DOT: {
          const pos = this.next();
          const id = this.parseIdent();
          x = { kind: 'Dot', x, name: id.name, namePos: id.pos, pos };
          break;
        }
        case T.LBRACK:
          x = this.parseSliceSuffix(x);
          break;
        case T.LPAREN:
          x = this.parseCallSuffix(x);
          break;
        default:
          this.chain = chain;
          return x;
      }
    }
  }

  parseSliceSuffix(x: A.Expr): A.Expr {
    const pos = this.next();
    let lo: A.Expr | null = null,
      hi: A.Expr | null = null,
      step: A.Expr | null = null;
    if (this.cur() !== T.COLON) {
      const y = this.parseExpr(false);
      if (this.cur() === T.RBRACK) {
        this.next();
        return { kind: 'Index', x, y, pos };
      }
      lo = y;
    }
    if (this.cur() === T.COLON) {
      this.next();
      if (this.cur() !== T.COLON && this.cur() !== T.RBRACK) hi = this.parseTest();
    }
    if (this.cur() === T.COLON) {
      this.next();
      if (this.cur() !== T.RBRACK) step = this.parseTest();
    }
    this.consume(T.RBRACK);
    return { kind: 'Slice', x, lo, hi, step, pos };
  }

  parseCallSuffix(fn: A.Expr): A.Expr {
    const pos = this.consume(T.LPAREN);
    let args: A.Expr[] = [];
    let rparen: Pos;
    if (this.cur() === T.RPAREN) rparen = this.next();
    else {
      args = this.parseArgs();
      rparen = this.consume(T.RPAREN);
    }
    return { kind: 'Call', fn, args, pos, rparen };
  }

  parseArgs(): A.Expr[] {
    const args: A.Expr[] = [];
    while (this.cur() !== T.RPAREN && this.cur() !== T.EOF) {
      if (args.length > 0) this.consume(T.COMMA);
      if (this.cur() === T.RPAREN) break;
      if (this.cur() === T.STAR || this.cur() === T.STARSTAR) {
        const op = this.cur();
        const pos = this.next();
        args.push({ kind: 'Unary', op, x: this.parseTest(), pos });
        continue;
      }
      let x = this.parseTest();
      if (this.cur() === T.EQ) {
        if (x.kind !== 'Ident') this.err(this.sc.pos, 'keyword argument must have form name=expr');
        const pos = this.next();
        x = { kind: 'Binary', op: T.EQ, x, y: this.parseTest(), pos };
      }
      args.push(x);
    }
    return args;
  }

  parsePrimary(): A.Expr {
    switch (this.cur()) {
      case T.IDENT:
        return this.parseIdent();
      case T.INT:
      case T.FLOAT:
      case T.STRING:
      case T.BYTES: {
        const tok = this.cur();
        const v = this.val;
        const value = tok === T.INT ? v.int : tok === T.FLOAT ? v.float : v.str;
        const pos = this.next();
        return { kind: 'Literal', token: tok, value, raw: v.raw, pos, isFloat: tok === T.FLOAT };
      }
      case T.LBRACK:
        return this.parseList();
      case T.LBRACE:
        return this.parseDict();
      case T.LPAREN: {
        const pos = this.next();
        if (this.cur() === T.RPAREN) {
          this.next();
          return { kind: 'Tuple', list: [], pos };
        }
        const e = this.parseExpr(true);
        this.consume(T.RPAREN);
        return { kind: 'Paren', x: e, pos };
      }
      case T.MINUS:
      case T.PLUS:
      case T.TILDE: {
        const op = this.cur();
        const pos = this.next();
        this.enter(pos);
        const x = this.parsePrimaryWithSuffix();
        this.nesting--;
        this.chain--;
        return { kind: 'Unary', op, x, pos };
      }
    }
    this.err(this.val.pos, `got ${tokenGoString(this.cur())}, want primary expression`);
  }

  parseList(): A.Expr {
    const pos = this.next();
    if (this.cur() === T.RBRACK) {
      this.next();
      return { kind: 'List', list: [], pos };
    }
    const x = this.parseTest();
    if (this.cur() === T.FOR) return this.parseComprehensionSuffix(pos, x, T.RBRACK);
    let exprs = [x];
    if (this.cur() === T.COMMA) exprs = this.parseExprs(exprs, true);
    this.consume(T.RBRACK);
    return { kind: 'List', list: exprs, pos };
  }

  parseDict(): A.Expr {
    const pos = this.next();
    if (this.cur() === T.RBRACE) {
      this.next();
      return { kind: 'Dict', list: [], pos };
    }
    const x = this.parseDictEntry();
    if (this.cur() === T.FOR) return this.parseComprehensionSuffix(pos, x, T.RBRACE);
    const entries = [x];
    while (this.cur() === T.COMMA) {
      this.next();
      if (this.cur() === T.RBRACE) break;
      entries.push(this.parseDictEntry());
    }
    this.consume(T.RBRACE);
    return { kind: 'Dict', list: entries, pos };
  }

  parseDictEntry(): A.DictEntry {
    const key = this.parseTest();
    const colon = this.consume(T.COLON);
    return { key, value: this.parseTest(), colon };
  }

  parseComprehensionSuffix(pos: Pos, body: A.Expr | A.DictEntry, end: T): A.Expr {
    const clauses: (A.ForClause | A.IfClause)[] = [];
    while (this.cur() !== end) {
      if (this.cur() === T.FOR) {
        const p = this.next();
        const vars = this.parseForLoopVariables();
        this.consume(T.IN);
        // clauses are nested expressions that bypass parseTest
        this.enter(this.val.pos);
        const x = this.parseTestPrec(0);
        this.nesting--;
        this.chain--;
        clauses.push({ kind: 'for', vars, x, pos: p });
      } else if (this.cur() === T.IF) {
        const p = this.next();
        this.enter(this.val.pos);
        const cond = this.parseTestNoCond();
        this.nesting--;
        this.chain--;
        clauses.push({ kind: 'if', cond, pos: p });
      } else {
        this.err(this.sc.pos, `got ${tokenGoString(this.cur())}, want '${tokenNames[end]}', for, or if`);
      }
    }
    this.next();
    return { kind: 'Comp', curly: end === T.RBRACE, body, clauses, pos };
  }
}

/**
 * Parse a whole file (`place`: where its lines are in `filename`, for a program embedded there).
 * Throws SyntaxError_ on the first error.
 */
export function parseFile(filename: string, src: string, place?: readonly LinePlace[]): A.File {
  const p = new Parser(new Scanner(filename, src, place));
  p.next();
  return { path: filename, stmts: p.parseFile() };
}
