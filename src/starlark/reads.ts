// What a function can read of one of its parameters, found statically in the resolved tree: a host
// passing a large value (svc's `ctx`) sends and converts only the parts a script can reach.
//
// A read is a chain of constant member accesses from the parameter, `p.a.b` or `p["a"]["b"]`
// (parentheses allowed). Any other use of the parameter (passed to a function, stored, returned,
// iterated, indexed by a computed key, reassigned) reaches the whole of what the chain has got to:
// `f(p.a)` reads all of `a`, `getattr(p, name)` and `dir(p)` all of `p`. Nested functions and
// lambdas that capture the parameter are included; a parameter of theirs with the same name is
// another variable.

import type { Binding, DictEntry, Expr, Ident, Stmt } from './syntax/ast.js';
import { T } from './syntax/tokens.js';
import { decodeUTF8 } from './values/utf8.js';

/**
 * 'all': every part may be read. A map: only the members named may be read, each as far as its
 * own Reads says (a member the script reads, then passes on, is 'all').
 */
export type Reads = 'all' | ReadonlyMap<string, Reads>;

type MutableReads = 'all' | Map<string, MutableReads>;

/**
 * The reads of parameter `index` of the top-level `def name` of a resolved file: 'all' when the
 * function is not a plain `def` found once at top level, or the parameter is `*args`/`**kwargs`.
 */
export function parameterReads(stmts: readonly Stmt[], name: string, index: number): Reads {
  const defs = stmts.filter((s) => s.kind === 'Def' && s.name.name === name);
  if (defs.length !== 1) return 'all';
  const def = defs[0] as Extract<Stmt, { kind: 'Def' }>;
  const param = paramIdent(def.params[index]);
  if (param === undefined || param.binding === undefined) return 'all';
  const reads = new Map<string, MutableReads>();
  let all = false;
  const record = (path: string[]): void => {
    if (path.length === 0) {
      all = true;
      return;
    }
    let node: Map<string, MutableReads> = reads;
    for (let i = 0; i < path.length; i++) {
      const key = path[i]!;
      const at = node.get(key);
      if (at === 'all') return;
      if (i === path.length - 1) {
        node.set(key, 'all');
        return;
      }
      if (at === undefined) {
        const next = new Map<string, MutableReads>();
        node.set(key, next);
        node = next;
      } else node = at;
    }
  };
  const walker = new Walker(param, record);
  // default values are evaluated outside the call, the body is what reads the parameter
  for (const s of def.body) walker.stmt(s);
  return all ? 'all' : reads;
}

function paramIdent(p: Expr | undefined): Ident | undefined {
  if (p === undefined) return undefined;
  if (p.kind === 'Ident') return p;
  if (p.kind === 'Binary' && p.op === T.EQ && p.x.kind === 'Ident') return p.x;
  return undefined; // *args, **kwargs, or the bare * separator
}

class Walker {
  readonly #first: Ident;
  constructor(
    param: Ident,
    private readonly record: (path: string[]) => void,
  ) {
    this.#first = (param.binding as Binding).first;
  }

  #isParam(e: Expr): boolean {
    return e.kind === 'Ident' && e.binding !== undefined && e.binding.first === this.#first;
  }

  /** The member path of a chain of constant accesses from the parameter, or undefined. */
  #chain(e: Expr): string[] | undefined {
    const path: string[] = [];
    let x = e;
    for (;;) {
      if (x.kind === 'Paren') x = x.x;
      else if (x.kind === 'Dot') {
        path.push(x.name);
        x = x.x;
      } else if (x.kind === 'Index' && x.y.kind === 'Literal' && x.y.token === T.STRING) {
        path.push(decodeUTF8(x.y.value as string));
        x = x.x;
      } else break;
    }
    return this.#isParam(x) ? path.reverse() : undefined;
  }

  stmt(s: Stmt): void {
    switch (s.kind) {
      case 'Assign':
        this.expr(s.lhs);
        this.expr(s.rhs);
        return;
      case 'Expr':
        this.expr(s.x);
        return;
      case 'Def':
        for (const p of s.params) this.expr(p);
        for (const b of s.body) this.stmt(b);
        return;
      case 'If':
        this.expr(s.cond);
        for (const b of s.t) this.stmt(b);
        for (const b of s.f) this.stmt(b);
        return;
      case 'For':
        this.expr(s.vars);
        this.expr(s.x);
        for (const b of s.body) this.stmt(b);
        return;
      case 'While':
        this.expr(s.cond);
        for (const b of s.body) this.stmt(b);
        return;
      case 'Return':
        if (s.result !== null) this.expr(s.result);
        return;
      case 'Branch':
      case 'Load':
        return;
    }
  }

  expr(e: Expr): void {
    const path = this.#chain(e);
    if (path !== undefined) {
      this.record(path);
      return;
    }
    switch (e.kind) {
      case 'Ident':
      case 'Literal':
        return;
      case 'Tuple':
      case 'List':
        for (const x of e.list) this.expr(x);
        return;
      case 'Dict':
        for (const x of e.list) this.entry(x);
        return;
      case 'Paren':
        this.expr(e.x);
        return;
      case 'Unary':
        if (e.x !== null) this.expr(e.x);
        return;
      case 'Binary':
        this.expr(e.x);
        this.expr(e.y);
        return;
      case 'Cond':
        this.expr(e.cond);
        this.expr(e.t);
        this.expr(e.f);
        return;
      case 'Lambda':
        for (const p of e.params) this.expr(p);
        this.expr(e.body);
        return;
      case 'Comp':
        if ('kind' in e.body) this.expr(e.body);
        else this.entry(e.body);
        for (const c of e.clauses) {
          if (c.kind === 'for') {
            this.expr(c.vars);
            this.expr(c.x);
          } else this.expr(c.cond);
        }
        return;
      case 'Dot':
        this.expr(e.x);
        return;
      case 'Index':
        this.expr(e.x);
        this.expr(e.y);
        return;
      case 'Slice':
        this.expr(e.x);
        if (e.lo !== null) this.expr(e.lo);
        if (e.hi !== null) this.expr(e.hi);
        if (e.step !== null) this.expr(e.step);
        return;
      case 'Call':
        this.expr(e.fn);
        for (const a of e.args) this.expr(a);
        return;
    }
  }

  entry(d: DictEntry): void {
    this.expr(d.key);
    this.expr(d.value);
  }
}
