// The compiler: resolved syntax tree -> tree of JS closures. Each expression
// becomes (fr) => Value, each statement (fr) => control code. Hot paths (small
// int arithmetic and comparison, string concatenation, local variables, list
// iteration, positional calls) are specialised inline; everything else goes
// through the generic operations in values/ops.ts, which are wrapped so that
// errors record the position of the failing operation.

import type * as A from './syntax/ast.js';
import { T } from './syntax/tokens.js';
import { exprStart } from './syntax/ast.js';
import {
  Bytes,
  type Cell,
  Dict,
  EvalErr,
  Float,
  type Frame,
  Func,
  List,
  MANDATORY,
  RangeValue,
  Tuple,
  type FuncCode,
  type Kwargs,
  type RuntimePos,
  type Value,
} from './values/types.js';
import * as ops from './values/ops.js';
import { annotate, callAt, tickAt } from './runtime.js';
import { callMethodAt, getAttrAt, invokeAt, methodTable, setField, type Method } from './attrs.js';
import { fastMethodCall } from './method-calls.js';
import { repr, typeName } from './values/repr.js';
import type { Thread } from './thread.js';
import { nearest } from './spell.js';
import { decodeUTF8 } from './values/utf8.js';

type Ex = (fr: Frame) => Value;
type St = (fr: Frame) => number; // control: 0 normal, 1 break, 2 continue, 3 return
type Assign = (fr: Frame, v: Value) => void;

const NORMAL = 0,
  BREAK = 1,
  CONTINUE = 2,
  RETURN = 3;
/** shared argument list of zero-argument method calls (built-ins never mutate their args) */
const NO_ARGS: Value[] = [];
const MAX = Number.MAX_SAFE_INTEGER;

export interface CompileContext {
  file: string;
  universe: Map<string, Value>;
  /** slot of each predeclared name in the globals array (after the module globals) */
  predeclaredSlot: (name: string) => number;
}

const binOps: Partial<Record<T, ops.BinOp>> = {
  [T.PLUS]: '+',
  [T.MINUS]: '-',
  [T.STAR]: '*',
  [T.SLASH]: '/',
  [T.SLASHSLASH]: '//',
  [T.PERCENT]: '%',
  [T.AMP]: '&',
  [T.PIPE]: '|',
  [T.CIRCUMFLEX]: '^',
  [T.LTLT]: '<<',
  [T.GTGT]: '>>',
  [T.IN]: 'in',
  [T.NOT_IN]: 'not in',
};
const augOps: Partial<Record<T, T>> = {
  [T.PLUS_EQ]: T.PLUS,
  [T.MINUS_EQ]: T.MINUS,
  [T.STAR_EQ]: T.STAR,
  [T.SLASH_EQ]: T.SLASH,
  [T.SLASHSLASH_EQ]: T.SLASHSLASH,
  [T.PERCENT_EQ]: T.PERCENT,
  [T.AMP_EQ]: T.AMP,
  [T.PIPE_EQ]: T.PIPE,
  [T.CIRCUMFLEX_EQ]: T.CIRCUMFLEX,
  [T.LTLT_EQ]: T.LTLT,
  [T.GTGT_EQ]: T.GTGT,
};
const cmpOps: Partial<Record<T, ops.CmpOp>> = {
  [T.EQL]: '==',
  [T.NEQ]: '!=',
  [T.LT]: '<',
  [T.LE]: '<=',
  [T.GT]: '>',
  [T.GE]: '>=',
};

function binaryAt(th: Thread, op: ops.BinOp, x: Value, y: Value, p: RuntimePos): Value {
  try {
    return ops.binary(op, x, y, th);
  } catch (e) {
    annotate(e, p);
  }
}
function compareAt(th: Thread, op: ops.CmpOp, x: Value, y: Value, p: RuntimePos): boolean {
  try {
    return ops.compare(op, x, y, th);
  } catch (e) {
    annotate(e, p);
  }
}
function indexAt(x: Value, y: Value, p: RuntimePos): Value {
  try {
    return ops.getIndex(x, y);
  } catch (e) {
    annotate(e, p);
  }
}

function refError(kind: 'local' | 'global', name: string, p: RuntimePos): never {
  const e = new EvalErr(`${kind} variable ${name} referenced before assignment`);
  e.pos = p;
  throw e;
}

export class Compiler {
  constructor(private ctx: CompileContext) {}

  pos(p: { line: number; col: number }): RuntimePos {
    return { file: this.ctx.file, line: p.line, col: p.col };
  }

  // ------------------------------------------------------------ statements

  block(stmts: A.Stmt[]): St {
    const sts = stmts.map((s) => this.stmt(s));
    const n = sts.length;
    if (n === 0) return () => NORMAL;
    if (n === 1) return sts[0]!;
    if (n === 2) {
      const [a, b] = sts as [St, St];
      return (fr) => {
        const c = a(fr);
        if (c !== NORMAL) return c;
        return b(fr);
      };
    }
    if (n === 3) {
      const [a, b, c3] = sts as [St, St, St];
      return (fr) => {
        let c = a(fr);
        if (c !== NORMAL) return c;
        c = b(fr);
        if (c !== NORMAL) return c;
        return c3(fr);
      };
    }
    return (fr) => {
      for (let i = 0; i < n; i++) {
        const c = sts[i]!(fr);
        if (c !== NORMAL) return c;
      }
      return NORMAL;
    };
  }

  stmt(s: A.Stmt): St {
    switch (s.kind) {
      case 'Expr': {
        const e = this.expr(s.x);
        return (fr) => {
          e(fr);
          return NORMAL;
        };
      }
      case 'Assign':
        return s.op === T.EQ ? this.assignStmt(s) : this.augAssign(s);
      case 'If': {
        const cond = this.cond(s.cond),
          t = this.block(s.t);
        if (s.f.length === 0) return (fr) => (cond(fr) ? t(fr) : NORMAL);
        const f = this.block(s.f);
        return (fr) => (cond(fr) ? t(fr) : f(fr));
      }
      case 'Return': {
        if (!s.result)
          return (fr) => {
            fr.ret = null;
            return RETURN;
          };
        const e = this.expr(s.result);
        return (fr) => {
          fr.ret = e(fr);
          return RETURN;
        };
      }
      case 'Branch':
        if (s.tok === T.BREAK) return () => BREAK;
        if (s.tok === T.CONTINUE) return () => CONTINUE;
        return () => NORMAL;
      case 'While': {
        const cond = this.cond(s.cond),
          body = this.block(s.body);
        const p = this.pos(s.pos);
        return (fr) => {
          const th = fr.th;
          while (cond(fr)) {
            if (++th.steps > th.checkAt) tickAt(th, p);
            const c = body(fr);
            if (c === BREAK) break;
            if (c === RETURN) return RETURN;
          }
          return NORMAL;
        };
      }
      case 'For':
        return this.forStmt(s);
      case 'Def': {
        const mk = this.func(s.fn!);
        const set = this.assignTo(s.name);
        return (fr) => {
          set(fr, mk(fr));
          return NORMAL;
        };
      }
      case 'Load':
        return this.loadStmt(s);
    }
  }

  loadStmt(s: A.LoadStmt): St {
    const p = this.pos(s.module.pos);
    // the module name is a string literal (UTF-8 bytes): decode it for the host
    // (the parser already decoded the imported names, which are identifiers)
    const modName = decodeUTF8(s.module.value as string);
    const sets = s.to.map((id, i) => ({ set: this.assignTo(id), from: s.from[i]!.name, p: this.pos(s.from[i]!.pos) }));
    return (fr) => {
      const load = fr.th.load;
      let mod: Map<string, Value>;
      try {
        if (load === null) throw new EvalErr('load not implemented by this application');
        mod = load(modName);
      } catch (e) {
        const err =
          e instanceof EvalErr && e.msg === 'load not implemented by this application'
            ? e
            : new EvalErr(`cannot load ${modName}: ${e instanceof EvalErr ? e.msg : (e as Error).message}`);
        err.pos = p;
        throw err;
      }
      for (const { set, from, p: fp } of sets) {
        const v = mod.get(from);
        if (v === undefined) {
          const near = nearest(from, [...mod.keys()]);
          const e = new EvalErr(`load: name ${from} not found in module ${modName}${near ? ` (did you mean ${near}?)` : ''}`);
          e.pos = fp;
          throw e;
        }
        set(fr, v);
      }
      return NORMAL;
    };
  }

  forStmt(s: A.ForStmt): St {
    const x = this.expr(s.x);
    const set = this.assignTo(s.vars);
    const body = this.block(s.body);
    const p = this.pos(s.pos);
    return (fr) => {
      const it = x(fr);
      const th = fr.th;
      if (it instanceof List) {
        it.itercount++;
        try {
          const e = it.elems;
          for (let i = 0; i < e.length; i++) {
            if (++th.steps > th.checkAt) tickAt(th, p);
            set(fr, e[i]!);
            const c = body(fr);
            if (c === BREAK) break;
            if (c === RETURN) return RETURN;
          }
        } finally {
          it.itercount--;
        }
        return NORMAL;
      }
      if (it instanceof RangeValue && it.small) {
        const { len } = it;
        const start = it.start as number,
          step = it.step as number;
        for (let i = 0; i < len; i++) {
          if (++th.steps > th.checkAt) tickAt(th, p);
          set(fr, start + i * step);
          const c = body(fr);
          if (c === BREAK) break;
          if (c === RETURN) return RETURN;
        }
        return NORMAL;
      }
      if (!ops.isIterable(it)) {
        const err = new EvalErr(`${typeName(it)} value is not iterable`);
        err.pos = p;
        throw err;
      }
      let ret = NORMAL;
      ops.forEach(it, (v) => {
        if (++th.steps > th.checkAt) tickAt(th, p);
        set(fr, v);
        const c = body(fr);
        if (c === BREAK) return true;
        if (c === RETURN) {
          ret = RETURN;
          return true;
        }
        return false;
      });
      return ret;
    };
  }

  assignStmt(s: A.AssignStmt): St {
    const rhs = this.expr(s.rhs);
    const set = this.assignTo(s.lhs);
    if (s.lhs.kind === 'Ident') {
      const b = s.lhs.binding!;
      if (b.scope === 'local') {
        const i = b.index;
        return (fr) => {
          fr.l[i] = rhs(fr);
          return NORMAL;
        };
      }
    }
    return (fr) => {
      set(fr, rhs(fr));
      return NORMAL;
    };
  }

  augAssign(s: A.AssignStmt): St {
    const op = binOps[augOps[s.op]!]!;
    const p = this.pos(s.pos);
    const rhs = this.expr(s.rhs);
    // x op= y: lists are extended and dicts updated in place; small ints first (the common case)
    const inplace = (fr: Frame, x: Value, y: Value): Value => {
      if (typeof x === 'number' && typeof y === 'number') {
        if (op === '+') {
          const r = x + y;
          if (r <= MAX && r >= -MAX) return r;
        } else if (op === '-') {
          const r = x - y;
          if (r <= MAX && r >= -MAX) return r;
        }
      } else if (op === '+' && x instanceof List && ops.isIterable(y)) {
        try {
          x.checkMutable('apply += to');
          const add = ops.toArray(y, fr.th);
          fr.th.checkElems(x.elems.length + add.length);
          fr.th.chargeAlloc(8 * add.length);
          for (const v of add) x.elems.push(v);
        } catch (e) {
          annotate(e, p);
        }
        return x;
      } else if (op === '|' && x instanceof Dict && y instanceof Dict) {
        try {
          x.ht.checkMutable('apply |= to');
          for (const [hk, v] of y.ht.vals) ops.dictSet(x, y.ht.keyOf(hk), v, fr.th);
        } catch (e) {
          annotate(e, p);
        }
        return x;
      }
      return binaryAt(fr.th, op, x, y, p);
    };
    const lhs = s.lhs;
    switch (lhs.kind) {
      case 'Ident': {
        const get = this.ident(lhs),
          set = this.assignTo(lhs);
        const b = lhs.binding!;
        if (b.scope === 'local') {
          const i = b.index;
          return (fr) => {
            const x = get(fr);
            fr.l[i] = inplace(fr, x, rhs(fr));
            return NORMAL;
          };
        }
        return (fr) => {
          set(fr, inplace(fr, get(fr), rhs(fr)));
          return NORMAL;
        };
      }
      case 'Index': {
        const xe = this.expr(lhs.x),
          ie = this.expr(lhs.y);
        const ip = this.pos(lhs.pos);
        return (fr) => {
          const x = xe(fr),
            i = ie(fr);
          const old = indexAt(x, i, ip);
          const v = inplace(fr, old, rhs(fr));
          try {
            ops.setIndex(x, i, v, fr.th);
          } catch (e) {
            annotate(e, ip);
          }
          return NORMAL;
        };
      }
      case 'Dot': {
        const xe = this.expr(lhs.x);
        const dp = this.pos(lhs.pos);
        const name = lhs.name;
        return (fr) => {
          const x = xe(fr);
          const v = inplace(fr, getAttrAt(x, name, dp), rhs(fr));
          try {
            setField(x, name, v);
          } catch (e) {
            annotate(e, dp);
          }
          return NORMAL;
        };
      }
      case 'Paren':
        return this.augAssign({ ...s, lhs: lhs.x });
    }
    throw new Error('unreachable: bad augmented assignment target');
  }

  /** Compile an assignment target into a setter. */
  assignTo(lhs: A.Expr): Assign {
    switch (lhs.kind) {
      case 'Ident': {
        const b = lhs.binding!;
        const i = b.index;
        switch (b.scope) {
          case 'local':
            return (fr, v) => {
              fr.l[i] = v;
            };
          case 'cell':
            return (fr, v) => {
              (fr.l[i] as Cell).v = v;
            };
          case 'free':
            return (fr, v) => {
              fr.fv[i]!.v = v;
            };
          case 'global':
            return (fr, v) => {
              fr.g[i] = v;
            };
        }
        throw new Error(`internal error: cannot assign to ${b.scope} ${lhs.name}`);
      }
      case 'Index': {
        const xe = this.expr(lhs.x),
          ie = this.expr(lhs.y);
        const p = this.pos(lhs.pos);
        return (fr, v) => {
          const x = xe(fr),
            i = ie(fr);
          try {
            ops.setIndex(x, i, v, fr.th);
          } catch (e) {
            annotate(e, p);
          }
        };
      }
      case 'Dot': {
        const xe = this.expr(lhs.x);
        const p = this.pos(lhs.pos);
        const name = lhs.name;
        return (fr, v) => {
          const x = xe(fr);
          try {
            setField(x, name, v);
          } catch (e) {
            annotate(e, p);
          }
        };
      }
      case 'Paren':
        return this.assignTo(lhs.x);
      case 'Tuple':
      case 'List': {
        const sets = lhs.list.map((e) => this.assignTo(e));
        const n = sets.length;
        const p = this.pos(exprStart(lhs));
        return (fr, v) => {
          let elems: Value[];
          if (v instanceof Tuple || v instanceof List) elems = v.elems;
          else {
            try {
              if (!ops.isIterable(v)) throw new EvalErr(`got ${typeName(v)} in sequence assignment`);
              elems = ops.toArray(v, fr.th);
            } catch (e) {
              annotate(e, p);
            }
          }
          if (elems.length !== n) {
            const e = new EvalErr(
              elems.length > n ? `too many values to unpack (got ${elems.length}, want ${n})` : `too few values to unpack (got ${elems.length}, want ${n})`,
            );
            e.pos = p;
            throw e;
          }
          for (let i = 0; i < n; i++) sets[i]!(fr, elems[i]!);
        };
      }
    }
    throw new Error(`internal error: bad assignment target ${lhs.kind}`);
  }

  // ------------------------------------------------------------ expressions

  /** Compile a condition to a JS boolean, avoiding boxing for comparisons. */
  cond(e: A.Expr): (fr: Frame) => boolean {
    if (e.kind === 'Binary' && cmpOps[e.op]) return this.comparison(e);
    if (e.kind === 'Unary' && e.op === T.NOT) {
      const c = this.cond(e.x!);
      return (fr) => !c(fr);
    }
    if (e.kind === 'Binary' && e.op === T.AND) {
      const a = this.cond(e.x),
        b = this.cond(e.y);
      return (fr) => a(fr) && b(fr);
    }
    if (e.kind === 'Binary' && e.op === T.OR) {
      const a = this.cond(e.x),
        b = this.cond(e.y);
      return (fr) => a(fr) || b(fr);
    }
    if (e.kind === 'Paren') return this.cond(e.x);
    const x = this.expr(e);
    return (fr) => {
      const v = x(fr);
      return v === true || (v !== false && v !== null && ops.truth(v));
    };
  }

  comparison(e: A.BinaryExpr): (fr: Frame) => boolean {
    const op = cmpOps[e.op]!;
    const x = this.expr(e.x),
      y = this.expr(e.y);
    const p = this.pos(e.pos);
    switch (op) {
      case '==':
        return (fr) => {
          const a = x(fr),
            b = y(fr);
          if (typeof a === 'string' && a.length > 1024) return ops.equals(a, b, fr.th); // charged by length
          return a === b
            ? typeof a !== 'object' || a === null || ops.equals(a, b, fr.th)
            : (typeof a === 'object' || typeof b === 'object') && ops.equals(a, b, fr.th);
        };
      case '!=':
        return (fr) => {
          const a = x(fr),
            b = y(fr);
          if (typeof a === 'string' && a.length > 1024) return !ops.equals(a, b, fr.th);
          return !(a === b
            ? typeof a !== 'object' || a === null || ops.equals(a, b, fr.th)
            : (typeof a === 'object' || typeof b === 'object') && ops.equals(a, b, fr.th));
        };
      case '<':
        return (fr) => {
          const a = x(fr),
            b = y(fr);
          return typeof a === 'number' && typeof b === 'number' ? a < b : compareAt(fr.th, op, a, b, p);
        };
      case '<=':
        return (fr) => {
          const a = x(fr),
            b = y(fr);
          return typeof a === 'number' && typeof b === 'number' ? a <= b : compareAt(fr.th, op, a, b, p);
        };
      case '>':
        return (fr) => {
          const a = x(fr),
            b = y(fr);
          return typeof a === 'number' && typeof b === 'number' ? a > b : compareAt(fr.th, op, a, b, p);
        };
      case '>=':
        return (fr) => {
          const a = x(fr),
            b = y(fr);
          return typeof a === 'number' && typeof b === 'number' ? a >= b : compareAt(fr.th, op, a, b, p);
        };
    }
  }

  ident(id: A.Ident): Ex {
    const b = id.binding!;
    const i = b.index;
    const name = id.name;
    const p = this.pos(id.pos);
    switch (b.scope) {
      case 'local':
        return (fr) => {
          const v = fr.l[i] as Value | undefined;
          return v !== undefined ? v : refError('local', name, p);
        };
      case 'cell':
        return (fr) => {
          const v = (fr.l[i] as Cell).v;
          return v !== undefined ? v : refError('local', name, p);
        };
      case 'free':
        return (fr) => {
          const v = fr.fv[i]!.v;
          return v !== undefined ? v : refError('local', name, p);
        };
      case 'global':
        return (fr) => {
          const v = fr.g[i];
          return v !== undefined ? v : refError('global', name, p);
        };
      case 'predeclared': {
        const slot = this.ctx.predeclaredSlot(name);
        return (fr) => {
          const v = fr.g[slot];
          if (v === undefined) {
            const e = new EvalErr(`internal error: predeclared variable ${name} is uninitialized`);
            e.pos = p;
            throw e;
          }
          return v;
        };
      }
      case 'universal': {
        const v = this.ctx.universe.get(name);
        if (v === undefined) throw new Error(`internal error: universal ${name} missing`);
        return () => v;
      }
    }
    throw new Error(`internal error: unresolved identifier ${name}`);
  }

  expr(e: A.Expr): Ex {
    switch (e.kind) {
      case 'Ident':
        return this.ident(e);
      case 'Literal': {
        let v: Value;
        if (e.token === T.BYTES) v = new Bytes(e.value as string);
        else if (e.isFloat) v = new Float(e.value as number);
        else v = e.value as Value;
        return () => v;
      }
      case 'Paren':
        return this.expr(e.x);
      case 'Tuple': {
        const xs = e.list.map((x) => this.expr(x));
        if (xs.length === 2) {
          const [a, b] = xs as [Ex, Ex];
          return (fr) => new Tuple([a(fr), b(fr)]);
        }
        return (fr) => new Tuple(xs.map((x) => x(fr)));
      }
      case 'List': {
        const xs = e.list.map((x) => this.expr(x));
        if (xs.length === 0) return () => new List([]);
        return (fr) => new List(xs.map((x) => x(fr)));
      }
      case 'Dict': {
        const es = e.list.map((en) => ({ k: this.expr(en.key), v: this.expr(en.value), p: this.pos(en.colon) }));
        return (fr) => {
          const d = new Dict();
          for (const en of es) {
            const k = en.k(fr),
              v = en.v(fr);
            try {
              const old = d.ht.size;
              ops.dictSet(d, k, v, fr.th);
              if (d.ht.size === old) throw new EvalErr(`duplicate key: ${repr(k, fr.th)}`);
            } catch (err) {
              annotate(err, en.p);
            }
          }
          return d;
        };
      }
      case 'Unary':
        return this.unary(e);
      case 'Binary':
        return this.binary(e);
      case 'Cond': {
        const c = this.cond(e.cond),
          t = this.expr(e.t),
          f = this.expr(e.f);
        return (fr) => (c(fr) ? t(fr) : f(fr));
      }
      case 'Index': {
        const x = this.expr(e.x),
          y = this.expr(e.y);
        const p = this.pos(e.pos);
        return (fr) => {
          const a = x(fr),
            i = y(fr);
          if (a instanceof List && typeof i === 'number') {
            const n = a.elems.length;
            const j = i < 0 ? i + n : i;
            if (j >= 0 && j < n) return a.elems[j]!;
          } else if (a instanceof Dict && typeof i === 'string' && !a.ci) {
            const v = a.ht.vals.get(i);
            if (v !== undefined) return v;
          }
          return indexAt(a, i, p);
        };
      }
      case 'Slice': {
        const x = this.expr(e.x);
        const none: Ex = () => null;
        const lo = e.lo ? this.expr(e.lo) : none,
          hi = e.hi ? this.expr(e.hi) : none,
          st = e.step ? this.expr(e.step) : none;
        const p = this.pos(e.pos);
        return (fr) => {
          const a = x(fr),
            l = lo(fr),
            h = hi(fr),
            s = st(fr);
          try {
            return ops.slice(a, l, h, s, fr.th);
          } catch (err) {
            annotate(err, p);
          }
        };
      }
      case 'Dot': {
        const x = this.expr(e.x);
        const p = this.pos(e.pos);
        const name = e.name;
        return (fr) => getAttrAt(x(fr), name, p);
      }
      case 'Call':
        return this.call(e);
      case 'Lambda':
        return this.func(e.fn!);
      case 'Comp':
        return this.comprehension(e);
    }
  }

  unary(e: A.UnaryExpr): Ex {
    const p = this.pos(e.pos);
    if (e.op === T.NOT) {
      const c = this.cond(e.x!);
      return (fr) => !c(fr);
    }
    const x = this.expr(e.x!);
    const op = e.op === T.MINUS ? '-' : e.op === T.PLUS ? '+' : '~';
    if (op === '-') {
      return (fr) => {
        const v = x(fr);
        if (typeof v === 'number' && v !== 0) return -v;
        try {
          return ops.unary(op, v, fr.th);
        } catch (err) {
          annotate(err, p);
        }
      };
    }
    return (fr) => {
      const v = x(fr);
      try {
        return ops.unary(op, v, fr.th);
      } catch (err) {
        annotate(err, p);
      }
    };
  }

  binary(e: A.BinaryExpr): Ex {
    if (e.op === T.AND) {
      const x = this.expr(e.x),
        y = this.expr(e.y);
      return (fr) => {
        const v = x(fr);
        return ops.truth(v) ? y(fr) : v;
      };
    }
    if (e.op === T.OR) {
      const x = this.expr(e.x),
        y = this.expr(e.y);
      return (fr) => {
        const v = x(fr);
        return ops.truth(v) ? v : y(fr);
      };
    }
    if (cmpOps[e.op]) {
      const c = this.comparison(e);
      return c;
    }
    const op = binOps[e.op]!;
    const x = this.expr(e.x),
      y = this.expr(e.y);
    const p = this.pos(e.pos);
    switch (op) {
      case '+':
        return (fr) => {
          const a = x(fr),
            b = y(fr);
          if (typeof a === 'number' && typeof b === 'number') {
            const r = a + b;
            if (r <= MAX && r >= -MAX) return r;
          } else if (typeof a === 'string' && typeof b === 'string') {
            if (a.length + b.length > 4096) checkStrLenAt(fr.th, a.length + b.length, b.length, p);
            return a + b;
          }
          return binaryAt(fr.th, op, a, b, p);
        };
      case '-':
        return (fr) => {
          const a = x(fr),
            b = y(fr);
          if (typeof a === 'number' && typeof b === 'number') {
            const r = a - b;
            if (r <= MAX && r >= -MAX) return r;
          }
          return binaryAt(fr.th, op, a, b, p);
        };
      case '*':
        return (fr) => {
          const a = x(fr),
            b = y(fr);
          if (typeof a === 'number' && typeof b === 'number') {
            const r = a * b;
            if (r <= MAX && r >= -MAX) return r + 0;
          }
          return binaryAt(fr.th, op, a, b, p);
        };
      case '%':
        return (fr) => {
          const a = x(fr),
            b = y(fr);
          if (typeof a === 'number' && typeof b === 'number' && b > 0 && a >= 0) return a % b;
          return binaryAt(fr.th, op, a, b, p);
        };
      case '//':
        return (fr) => {
          const a = x(fr),
            b = y(fr);
          if (typeof a === 'number' && typeof b === 'number' && b > 0 && a >= 0) {
            const q = Math.floor(a / b);
            const r = a - q * b; // float division may round up near huge quotients: verify
            if (r >= 0 && r < b) return q;
          }
          return binaryAt(fr.th, op, a, b, p);
        };
      case 'in':
        return (fr) => {
          const a = x(fr),
            b = y(fr);
          if (b instanceof Dict && typeof a === 'string' && !b.ci) return b.ht.vals.has(a);
          return binaryAt(fr.th, op, a, b, p);
        };
    }
    return (fr) => binaryAt(fr.th, op, x(fr), y(fr), p);
  }

  call(e: A.CallExpr): Ex {
    const p = this.pos(e.pos);
    const a = this.callArgs(e, p);
    if (e.fn.kind === 'Dot') return this.methodCall(e.fn, a, p);
    const fn = this.expr(e.fn);
    if (a.simple && a.pos.length === 1) {
      const a0 = a.pos[0]!;
      return (fr) => {
        const f = fn(fr);
        return callAt(fr.th, f, [a0(fr)], null, p);
      };
    }
    const args = a.eval;
    return (fr) => {
      const f = fn(fr);
      const [x, k] = args(fr);
      return callAt(fr.th, f, x, k, p);
    };
  }

  /** The arguments of a call: the positional ones compiled one by one (for specialised call sites), and all of them together. */
  callArgs(e: A.CallExpr, p: RuntimePos): CallArgs {
    const pos: Ex[] = [];
    const kw: { name: string; v: Ex }[] = [];
    let star: Ex | null = null,
      starstar: Ex | null = null;
    for (const a of e.args) {
      if (a.kind === 'Unary' && a.op === T.STAR) star = this.expr(a.x!);
      else if (a.kind === 'Unary' && a.op === T.STARSTAR) starstar = this.expr(a.x!);
      else if (a.kind === 'Binary' && a.op === T.EQ) kw.push({ name: (a.x as A.Ident).name, v: this.expr(a.y) });
      else pos.push(this.expr(a));
    }
    const n = pos.length;
    if (kw.length === 0 && star === null && starstar === null) {
      return {
        pos,
        simple: true,
        eval: (fr) => {
          const a = new Array<Value>(n);
          for (let i = 0; i < n; i++) a[i] = pos[i]!(fr);
          return [a, null];
        },
      };
    }
    return {
      pos,
      simple: false,
      eval: (fr) => {
        const a: Value[] = pos.map((x) => x(fr));
        const k: [string, Value][] | null = kw.length > 0 ? kw.map(({ name, v }) => [name, v(fr)] as [string, Value]) : null;
        if (star !== null) spreadArgs(fr.th, star(fr), a, p);
        if (starstar !== null) return [a, spreadKwargs(fr.th, starstar(fr), k ?? [], p)];
        return [a, k];
      },
    };
  }

  /**
   * x.name(args) without allocating a bound method. Each call site caches the
   * method found for the last receiver's method table: the answer depends only
   * on the table, fixed once methods/*.ts are loaded, so the cache is the same
   * for every thread and holds no run state.
   */
  methodCall(dot: A.DotExpr, a: CallArgs, p: RuntimePos): Ex {
    const recv = this.expr(dot.x);
    const name = dot.name;
    const dp = this.pos(dot.pos);
    let cacheT: Map<string, Method> | undefined, cacheM: Method | undefined;
    const lookup = (r: Value): Method | undefined => {
      const t = methodTable(r);
      if (t === undefined) return undefined;
      if (t !== cacheT) {
        cacheT = t;
        cacheM = t.get(name);
      }
      return cacheM;
    };
    const n = a.pos.length;
    if (a.simple && n <= 2) {
      const a0 = a.pos[0],
        a1 = a.pos[1];
      const evaluated = (fr: Frame, r: Value, x: Value[]): Value => {
        const m = lookup(r);
        if (m !== undefined) return callMethodAt(fr.th, m, r, name, x, null, p);
        return invokeAt(fr.th, r, name, x, null, p, dp);
      };
      const general = (fr: Frame, r: Value): Value => evaluated(fr, r, n === 0 ? NO_ARGS : n === 1 ? [a0!(fr)] : [a0!(fr), a1!(fr)]);
      const fast = fastMethodCall(name, recv, a.pos, general, evaluated);
      if (fast !== undefined) return fast;
      return (fr) => {
        const r = recv(fr);
        const x: Value[] = n === 0 ? NO_ARGS : n === 1 ? [a0!(fr)] : [a0!(fr), a1!(fr)];
        const m = lookup(r);
        if (m !== undefined) return callMethodAt(fr.th, m, r, name, x, null, p);
        return invokeAt(fr.th, r, name, x, null, p, dp);
      };
    }
    const args = a.eval;
    return (fr) => {
      const r = recv(fr);
      const [x, k] = args(fr);
      const m = lookup(r);
      if (m !== undefined) return callMethodAt(fr.th, m, r, name, x, k, p);
      return invokeAt(fr.th, r, name, x, k, p, dp);
    };
  }

  /** Compile a def or lambda; returns a closure that creates the function value. */
  func(info: A.FunctionInfo): Ex {
    const code: FuncCode = {
      name: info.name,
      file: this.ctx.file,
      pos: this.pos(info.pos),
      nparams: 0,
      nlocals: info.locals.length,
      hasVarargs: info.hasVarargs,
      hasKwargs: info.hasKwargs,
      numKwonly: info.numKwonlyParams,
      simpleParams: false,
      paramNames: [],
      cellLocals: [],
      body: () => null,
    };
    let nparams = 0;
    for (const prm of info.params) if (prm.kind !== 'Unary' || prm.x) nparams++;
    const dflt = this.defaultExprs(info);
    code.nparams = nparams;
    code.simpleParams = !info.hasVarargs && !info.hasKwargs && info.numKwonlyParams === 0;
    code.paramNames = info.locals.slice(0, nparams).map((b) => b.first.name);
    code.cellLocals = info.locals.filter((b) => b.scope === 'cell').map((b) => b.index);
    const only = info.body.length === 1 ? info.body[0]! : null;
    if (only !== null && only.kind === 'Return' && only.result !== null) {
      code.body = this.expr(only.result); // `return expr` bodies (lambdas, small helpers)
    } else {
      const body = this.block(info.body);
      code.body = (fr) => (body(fr) === RETURN ? fr.ret : null);
    }
    const freevars = info.freevars.map((b) => {
      const i = b.index;
      if (b.scope === 'cell') return (fr: Frame) => fr.l[i] as Cell;
      if (b.scope === 'free') return (fr: Frame) => fr.fv[i]!;
      throw new Error(`internal error: freevar with scope ${b.scope}`);
    });
    return (fr) => {
      const d = dflt.map((x) => (x === null ? MANDATORY : x(fr)));
      const fv = freevars.map((f) => f(fr));
      return new Func(code, d, fv, fr.env);
    };
  }

  /** Default values, like starlark-go: one per optional parameter, MANDATORY (null) for required keyword-only ones. */
  defaultExprs(info: A.FunctionInfo): (Ex | null)[] {
    const out: (Ex | null)[] = [];
    let seenStar = false;
    for (const prm of info.params) {
      if (prm.kind === 'Unary') seenStar = true;
      else if (prm.kind === 'Binary') out.push(this.expr(prm.y));
      else if (seenStar) out.push(null);
    }
    return out;
  }

  comprehension(e: A.Comprehension): Ex {
    // Build the nest of clauses from the inside out. Each level receives the accumulator.
    type Lv = (fr: Frame, acc: List | Dict) => void;
    let inner: Lv;
    if (e.curly) {
      const en = e.body as A.DictEntry;
      const k = this.expr(en.key),
        v = this.expr(en.value);
      const p = this.pos(en.colon);
      inner = (fr, acc) => {
        const kv = k(fr),
          vv = v(fr);
        try {
          ops.dictSet(acc as Dict, kv, vv, fr.th);
        } catch (err) {
          annotate(err, p);
        }
      };
    } else {
      const b = this.expr(e.body as A.Expr);
      inner = (fr, acc) => {
        const el = (acc as List).elems;
        if (el.length >= 65536 && (el.length & 0xffff) === 0) fr.th.checkElems(el.length);
        el.push(b(fr));
      };
    }
    for (let i = e.clauses.length - 1; i >= 0; i--) {
      const c = e.clauses[i]!;
      const next = inner;
      if (c.kind === 'if') {
        const cond = this.cond(c.cond);
        inner = (fr, acc) => {
          if (cond(fr)) next(fr, acc);
        };
      } else {
        const x = this.expr(c.x);
        const set = this.assignTo(c.vars);
        const p = this.pos(c.pos);
        inner = (fr, acc) => {
          const it = x(fr);
          const th = fr.th;
          if (it instanceof List) {
            it.itercount++;
            try {
              const el = it.elems;
              for (let j = 0; j < el.length; j++) {
                if (++th.steps > th.checkAt) tickAt(th, p);
                set(fr, el[j]!);
                next(fr, acc);
              }
            } finally {
              it.itercount--;
            }
            return;
          }
          if (!ops.isIterable(it)) {
            const err = new EvalErr(`${typeName(it)} value is not iterable`);
            err.pos = p;
            throw err;
          }
          ops.forEach(it, (v) => {
            if (++th.steps > th.checkAt) tickAt(th, p);
            set(fr, v);
            next(fr, acc);
          });
        };
      }
    }
    const run = inner;
    if (e.curly)
      return (fr) => {
        const d = new Dict();
        run(fr, d);
        return d;
      };
    return (fr) => {
      const l = new List([]);
      run(fr, l);
      return l;
    };
  }
}

function checkStrLenAt(th: Thread, n: number, added: number, p: RuntimePos): void {
  try {
    th.checkStrLen(n);
    th.chargeAlloc(added);
  } catch (e) {
    annotate(e, p);
  }
}

/** Compiled arguments of a call site. */
interface CallArgs {
  /** the positional arguments, in order */
  pos: Ex[];
  /** only positional arguments (no keywords, *args or **kwargs) */
  simple: boolean;
  eval: (fr: Frame) => [Value[], Kwargs];
}

function argError(msg: string, p: RuntimePos): never {
  const err = new EvalErr(msg);
  err.pos = p;
  throw err;
}

/** f(*s): append the elements of s to the positional arguments. */
function spreadArgs(th: Thread, s: Value, args: Value[], p: RuntimePos): void {
  if (!ops.isIterable(s)) argError(`argument after * must be iterable, not ${typeName(s)}`, p);
  for (const v of ops.toArray(s, th)) args.push(v);
}

/** f(**s): append the entries of s to the keyword arguments. */
function spreadKwargs(th: Thread, s: Value, kwargs: [string, Value][], p: RuntimePos): [string, Value][] {
  if (!(s instanceof Dict)) argError(`argument after ** must be a mapping, not ${typeName(s)}`, p);
  if (s.ht.size > 64) th.chargeSteps(s.ht.size);
  for (const [hk, v] of s.ht.vals) {
    const key = s.ht.keyOf(hk);
    if (typeof key !== 'string') argError(`keywords must be strings, not ${typeName(key)}`, p);
    kwargs.push([decodeUTF8(key), v]); // Starlark string -> identifier text
  }
  return kwargs;
}
