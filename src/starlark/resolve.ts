// The resolver: a port of starlark-go's resolve/resolve.go. It checks the
// static rules (undefined names, reassigned globals, misplaced control flow,
// parameter and argument ordering) and annotates every identifier with its
// Binding: local, cell (local captured by a nested function), free (captured
// from an enclosing function), global, predeclared or universal.

import type * as A from './syntax/ast.js';
import { exprStart } from './syntax/ast.js';
import { T, tokenNames } from './syntax/tokens.js';
import type { Pos } from './syntax/scanner.js';
import { nearest } from './spell.js';

export interface FileOptions {
  set: boolean;
  while: boolean;
  topLevelControl: boolean;
  globalReassign: boolean;
  loadBindsGlobally: boolean;
  recursion: boolean;
}

export interface ResolveError {
  pos: Pos;
  msg: string;
}

const doesnt = 'this Starlark dialect does not ';

interface Use {
  id: A.Ident;
  env: Block;
}

class Block {
  parent: Block | null = null;
  bindings = new Map<string, A.Binding>();
  children: Block[] = [];
  uses: Use[] = [];
  constructor(
    public fn: A.FunctionInfo | null,
    public isComp = false,
  ) {}
}

class Resolver {
  file = new Block(null);
  env: Block = this.file;
  moduleLocals: A.Binding[] = [];
  moduleGlobals: A.Binding[] = [];
  globals = new Map<string, A.Binding>();
  predeclared = new Map<string, A.Binding>();
  loops = 0;
  ifstmts = 0;
  errors: ResolveError[] = [];

  constructor(
    /** the file's name, for positions quoted in messages */
    public path: string,
    public opts: FileOptions,
    public isPredeclared: (n: string) => boolean,
    public isUniversal: (n: string) => boolean,
    public knownNames: Iterable<string> = [],
  ) {}

  errorf(pos: Pos, msg: string): void {
    this.errors.push({ pos, msg });
  }

  fmtPos(p: Pos): string {
    return `${this.path}:${p.line}:${p.col}`;
  }

  container(): Block {
    for (let b: Block = this.env; ; b = b.parent!) if (b.fn !== null || b === this.file) return b;
  }

  push(b: Block): void {
    this.env.children.push(b);
    b.parent = this.env;
    this.env = b;
  }

  pop(): void {
    this.env = this.env.parent!;
  }

  bind(id: A.Ident): boolean {
    if (this.env === this.file) {
      let b = this.file.bindings.get(id.name);
      let ok = b !== undefined;
      if (!b) {
        b = this.globals.get(id.name);
        ok = b !== undefined;
        if (!b) {
          b = { scope: 'global', index: this.moduleGlobals.length, first: id };
          this.globals.set(id.name, b);
          this.moduleGlobals.push(b);
        }
      }
      if (ok && !this.opts.globalReassign) {
        this.errorf(id.pos, `cannot reassign ${b.scope} ${id.name} declared at ${this.fmtPos(b.first.pos)}`);
      }
      id.binding = b;
      return ok;
    }
    return this.bindLocal(id);
  }

  bindLocal(id: A.Ident): boolean {
    const ok = this.env.bindings.has(id.name);
    if (!ok) {
      const fn = this.container().fn;
      const locals = fn ? fn.locals : this.moduleLocals;
      const b: A.Binding = { scope: 'local', index: locals.length, first: id };
      this.env.bindings.set(id.name, b);
      locals.push(b);
    }
    this.use(id);
    return ok;
  }

  use(id: A.Ident): void {
    const u = { id, env: this.env };
    if (this.opts.globalReassign && this.env === this.file) {
      this.useToplevel(u);
      return;
    }
    this.container().uses.push(u);
  }

  useToplevel(u: Use): A.Binding {
    const id = u.id;
    let b = this.file.bindings.get(id.name) ?? this.globals.get(id.name) ?? this.predeclared.get(id.name);
    if (!b) {
      if (this.isPredeclared(id.name)) {
        b = { scope: 'predeclared', index: 0, first: id };
        this.predeclared.set(id.name, b);
      } else if (this.isUniversal(id.name)) {
        if (!this.opts.set && id.name === 'set') this.errorf(id.pos, doesnt + 'support sets');
        b = { scope: 'universal', index: 0, first: id };
        this.predeclared.set(id.name, b);
      } else {
        b = { scope: 'undefined', index: 0, first: id };
        const n = this.spellcheck(u);
        this.errorf(id.pos, `undefined: ${id.name}${n ? ` (did you mean ${n}?)` : ''}`);
      }
    }
    id.binding = b;
    return b;
  }

  spellcheck(u: Use): string {
    const names: string[] = [];
    for (let b: Block | null = u.env; b; b = b.parent) for (const n of b.bindings.keys()) names.push(n);
    for (const b of this.moduleGlobals) names.push(b.first.name);
    // unlike starlark-go, also suggest predeclared and universal names (len for lenn)
    for (const n of this.knownNames) names.push(n);
    names.sort();
    return nearest(u.id.name, names);
  }

  resolveLocalUses(b: Block): void {
    const unresolved: Use[] = [];
    for (const u of b.uses) {
      const bind = lookupLocal(u);
      if (bind && (bind.scope === 'local' || bind.scope === 'cell')) u.id.binding = bind;
      else unresolved.push(u);
    }
    b.uses = unresolved;
  }

  stmts(ss: A.Stmt[]): void {
    for (const s of ss) this.stmt(s);
  }

  stmt(s: A.Stmt): void {
    switch (s.kind) {
      case 'Expr':
        this.expr(s.x);
        break;
      case 'Branch':
        if (this.loops === 0 && (s.tok === T.BREAK || s.tok === T.CONTINUE)) this.errorf(s.pos, `${tokenNames[s.tok]} not in a loop`);
        break;
      case 'If':
        if (!this.opts.topLevelControl && this.container().fn === null) this.errorf(s.pos, 'if statement not within a function');
        this.expr(s.cond);
        this.ifstmts++;
        this.stmts(s.t);
        this.stmts(s.f);
        this.ifstmts--;
        break;
      case 'Assign':
        this.expr(s.rhs);
        this.assign(s.lhs, s.op !== T.EQ);
        break;
      case 'Def': {
        this.bind(s.name);
        const fn: A.FunctionInfo = {
          name: s.name.name,
          pos: s.pos,
          params: s.params,
          body: s.body,
          hasVarargs: false,
          hasKwargs: false,
          numKwonlyParams: 0,
          locals: [],
          freevars: [],
        };
        s.fn = fn;
        this.func(fn);
        break;
      }
      case 'For':
        if (!this.opts.topLevelControl && this.container().fn === null) this.errorf(s.pos, 'for loop not within a function');
        this.expr(s.x);
        this.assign(s.vars, false);
        this.loops++;
        this.stmts(s.body);
        this.loops--;
        break;
      case 'While':
        if (!this.opts.while) this.errorf(s.pos, doesnt + 'support while loops');
        if (!this.opts.topLevelControl && this.container().fn === null) this.errorf(s.pos, 'while loop not within a function');
        this.expr(s.cond);
        this.loops++;
        this.stmts(s.body);
        this.loops--;
        break;
      case 'Return':
        if (this.container().fn === null) this.errorf(s.pos, 'return statement not within a function');
        if (s.result) this.expr(s.result);
        break;
      case 'Load':
        if (this.container().fn !== null) this.errorf(s.pos, 'load statement within a function');
        else if (this.loops > 0) this.errorf(s.pos, 'load statement within a loop');
        else if (this.ifstmts > 0) this.errorf(s.pos, 'load statement within a conditional');
        s.from.forEach((from, i) => {
          if (from.name === '') {
            this.errorf(from.pos, 'load: empty identifier');
            return;
          }
          if (from.name[0] === '_') this.errorf(from.pos, `load: names with leading underscores are not exported: ${from.name}`);
          const id = s.to[i]!;
          if (this.opts.loadBindsGlobally) this.bind(id);
          else if (this.bindLocal(id) && !this.opts.globalReassign) this.errorf(id.pos, `cannot reassign top-level ${id.name}`);
        });
        break;
    }
  }

  assign(lhs: A.Expr, aug: boolean): void {
    switch (lhs.kind) {
      case 'Ident':
        this.bind(lhs);
        break;
      case 'Index':
        this.expr(lhs.x);
        this.expr(lhs.y);
        break;
      case 'Dot':
        this.expr(lhs.x);
        break;
      case 'Tuple':
        if (aug) this.errorf(exprStart(lhs), "can't use tuple expression in augmented assignment");
        for (const e of lhs.list) this.assign(e, aug);
        break;
      case 'List':
        if (aug) this.errorf(exprStart(lhs), "can't use list expression in augmented assignment");
        for (const e of lhs.list) this.assign(e, aug);
        break;
      case 'Paren':
        this.assign(lhs.x, aug);
        break;
      default: {
        const names: Record<string, string> = {
          Literal: 'literal',
          Dict: 'dictexpr',
          Unary: 'unaryexpr',
          Binary: 'binaryexpr',
          Cond: 'condexpr',
          Lambda: 'lambdaexpr',
          Comp: 'comprehension',
          Slice: 'sliceexpr',
          Call: 'callexpr',
        };
        this.errorf(exprStart(lhs), `can't assign to ${names[lhs.kind] ?? lhs.kind.toLowerCase()}`);
      }
    }
  }

  expr(e: A.Expr): void {
    switch (e.kind) {
      case 'Ident':
        this.use(e);
        break;
      case 'Literal':
        break;
      case 'List':
      case 'Tuple':
        for (const x of e.list) this.expr(x);
        break;
      case 'Cond':
        this.expr(e.cond);
        this.expr(e.t);
        this.expr(e.f);
        break;
      case 'Index':
        this.expr(e.x);
        this.expr(e.y);
        break;
      case 'Slice':
        this.expr(e.x);
        if (e.lo) this.expr(e.lo);
        if (e.hi) this.expr(e.hi);
        if (e.step) this.expr(e.step);
        break;
      case 'Comp': {
        const c0 = e.clauses[0] as A.ForClause;
        this.expr(c0.x);
        this.push(new Block(null, true));
        this.assign(c0.vars, false);
        for (const c of e.clauses.slice(1)) {
          if (c.kind === 'if') this.expr(c.cond);
          else {
            this.assign(c.vars, false);
            this.expr(c.x);
          }
        }
        if ('key' in e.body) {
          this.expr(e.body.key);
          this.expr(e.body.value);
        } else this.expr(e.body);
        this.pop();
        break;
      }
      case 'Dict':
        for (const en of e.list) {
          this.expr(en.key);
          this.expr(en.value);
        }
        break;
      case 'Unary':
        if (e.x) this.expr(e.x);
        break;
      case 'Binary':
        this.expr(e.x);
        this.expr(e.y);
        break;
      case 'Dot':
        this.expr(e.x);
        break;
      case 'Paren':
        this.expr(e.x);
        break;
      case 'Call': {
        this.expr(e.fn);
        let seenVarargs = false,
          seenKwargs = false;
        const seenName = new Set<string>();
        let n = 0,
          p = 0;
        for (const arg of e.args) {
          const pos = exprStart(arg);
          if (arg.kind === 'Unary' && arg.op === T.STARSTAR) {
            if (seenKwargs) this.errorf(pos, 'multiple **kwargs not allowed');
            seenKwargs = true;
            this.expr(arg);
          } else if (arg.kind === 'Unary' && arg.op === T.STAR) {
            if (seenKwargs) this.errorf(pos, '*args may not follow **kwargs');
            else if (seenVarargs) this.errorf(pos, 'multiple *args not allowed');
            seenVarargs = true;
            this.expr(arg);
          } else if (arg.kind === 'Binary' && arg.op === T.EQ) {
            n++;
            if (seenKwargs) this.errorf(pos, 'keyword argument may not follow **kwargs');
            else if (seenVarargs) this.errorf(pos, 'keyword argument may not follow *args');
            const x = arg.x as A.Ident;
            if (seenName.has(x.name)) this.errorf(x.pos, `keyword argument ${JSON.stringify(x.name)} is repeated`);
            else seenName.add(x.name);
            this.expr(arg.y);
          } else {
            p++;
            if (seenVarargs) this.errorf(pos, 'positional argument may not follow *args');
            else if (seenKwargs) this.errorf(pos, 'positional argument may not follow **kwargs');
            else if (seenName.size > 0) this.errorf(pos, 'positional argument may not follow named');
            this.expr(arg);
          }
        }
        if (p >= 256) this.errorf(exprStart(e), `${p} positional arguments in call, limit is 255`);
        if (n >= 256) this.errorf(exprStart(e), `${n} keyword arguments in call, limit is 255`);
        break;
      }
      case 'Lambda': {
        const fn: A.FunctionInfo = {
          name: 'lambda',
          pos: e.pos,
          params: e.params,
          body: [{ kind: 'Return', result: e.body, pos: exprStart(e.body) }],
          hasVarargs: false,
          hasKwargs: false,
          numKwonlyParams: 0,
          locals: [],
          freevars: [],
        };
        e.fn = fn;
        this.func(fn);
        break;
      }
    }
  }

  func(fn: A.FunctionInfo): void {
    for (const p of fn.params) if (p.kind === 'Binary') this.expr(p.y);
    const b = new Block(fn);
    this.push(b);
    const outerLoops = this.loops;
    this.loops = 0;
    let seenOptional = false;
    let star: A.UnaryExpr | null = null;
    let starStar: A.Ident | null = null;
    let numKwonly = 0;
    for (const p of fn.params) {
      if (p.kind === 'Ident') {
        if (starStar) this.errorf(p.pos, `required parameter may not follow **${starStar.name}`);
        else if (star) numKwonly++;
        else if (seenOptional) this.errorf(p.pos, 'required parameter may not follow optional');
        if (this.bind(p)) this.errorf(p.pos, `duplicate parameter: ${p.name}`);
      } else if (p.kind === 'Binary') {
        if (starStar) this.errorf(p.pos, `optional parameter may not follow **${starStar.name}`);
        else if (star) numKwonly++;
        const id = p.x as A.Ident;
        if (this.bind(id)) this.errorf(p.pos, `duplicate parameter: ${id.name}`);
        seenOptional = true;
      } else if (p.kind === 'Unary') {
        if (p.op === T.STAR) {
          if (starStar) this.errorf(p.pos, `* parameter may not follow **${starStar.name}`);
          else if (star) this.errorf(p.pos, 'multiple * parameters not allowed');
          else star = p;
        } else {
          if (starStar) this.errorf(p.pos, 'multiple ** parameters not allowed');
          starStar = p.x as A.Ident;
        }
      }
    }
    if (star) {
      const id = star.x as A.Ident | null;
      if (id) {
        if (this.bind(id)) this.errorf(id.pos, `duplicate parameter: ${id.name}`);
        fn.hasVarargs = true;
      } else if (numKwonly === 0) this.errorf(star.pos, 'bare * must be followed by keyword-only parameters');
    }
    if (starStar) {
      if (this.bind(starStar)) this.errorf(starStar.pos, `duplicate parameter: ${starStar.name}`);
      fn.hasKwargs = true;
    }
    fn.numKwonlyParams = numKwonly;
    this.stmts(fn.body);
    this.resolveLocalUses(b);
    this.pop();
    this.loops = outerLoops;
  }

  resolveNonLocalUses(b: Block): void {
    for (const c of b.children) this.resolveNonLocalUses(c);
    for (const u of b.uses) u.id.binding = this.lookupLexical(u, u.env);
  }

  lookupLexical(u: Use, env: Block): A.Binding {
    if (env === this.file) return this.useToplevel(u);
    let b = env.bindings.get(u.id.name);
    if (!b) {
      b = this.lookupLexical(u, env.parent!);
      if (env.fn !== null && (b.scope === 'local' || b.scope === 'free' || b.scope === 'cell')) {
        if (b.scope === 'local') b.scope = 'cell';
        const index = env.fn.freevars.length;
        env.fn.freevars.push(b);
        b = { scope: 'free', index, first: b.first };
      }
      env.bindings.set(u.id.name, b);
    }
    return b;
  }
}

function lookupLocal(u: Use): A.Binding | null {
  for (let env: Block | null = u.env; env; env = env.parent) {
    const b = env.bindings.get(u.id.name);
    if (b) return b;
    if (env.fn !== null) break;
  }
  return null;
}

export interface ResolvedModule {
  locals: A.Binding[]; // file-local bindings (loads, toplevel comprehension variables)
  globals: A.Binding[];
  errors: ResolveError[];
}

/** Resolve a parsed file in place. */
export function resolveFile(
  file: A.File,
  opts: FileOptions,
  isPredeclared: (n: string) => boolean,
  isUniversal: (n: string) => boolean,
  knownNames: Iterable<string> = [],
): ResolvedModule {
  const r = new Resolver(file.path, opts, isPredeclared, isUniversal, knownNames);
  r.stmts(file.stmts);
  r.resolveLocalUses(r.env);
  r.resolveNonLocalUses(r.env);
  return { locals: r.moduleLocals, globals: r.moduleGlobals, errors: r.errors };
}
