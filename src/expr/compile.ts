/**
 * The expression compiler: syntax tree -> closure, once, at boot.
 *
 * Every node becomes an `Evaluator` `(vars, frame) => value`. Root variables are read from `vars`,
 * locals from fixed frame slots (scope.ts), so evaluation allocates nothing but the values it builds.
 * Sub-expressions that depend on no variable and call only pure functions are evaluated here and
 * replaced by their (deep-frozen) value; an error met while folding is a boot diagnostic, which is how
 * "obviously wrong constant operands" (`1 + "a"`, `upper([])`) are reported before the server listens.
 */
import { type Diagnostic, type Range, didYouMean } from '../diag/index.js';
import type * as ast from '../hcl/index.js';
import { isWrap } from '../hcl/index.js';
import { MAX_BUILT_CHARS, newExprBudget, tooMuchText } from './budget.js';
import { ExprEvalError, FunctionArgError } from './errors.js';
import { callEvaluator, describeArity } from './calls.js';
import { forObject, forTuple } from './for.js';
import type { FunctionDef, FunctionTable } from './functions/index.js';
import type { FunctionImpl } from './functions/types.js';
import { binary, operandKind, unary } from './operators.js';
import type { Evaluator, Frame } from './scope.js';
import { EMPTY_FRAME, type ExprScope } from './scope.js';
import { splat } from './splat.js';
import { concat, forPart, ifPart, interpPart } from './templates.js';
import { index } from './traversal.js';
import { staticReferences } from './references.js';
import { encodedPart, UrlPosition, type UrlEncoding, type UrlShape } from './url.js';
import { genObject, genTraversal, genTuple } from './codegen.js';
import { deepFreeze, primitiveToBool, primitiveToNumber, primitiveToString, setKey, typeName } from './values.js';

/** A compiled node with what folding needs to know about it. */
export interface Node {
  readonly fn: Evaluator;
  /** No root variable, no impure function below. */
  readonly pure: boolean;
  /** Smallest frame slot read below (Infinity if none): a node is closed when all its locals are its own. */
  readonly minSlot: number;
  readonly constant: boolean;
  readonly value?: unknown;
}

/** The names under `ctx` (DECISIONS.md §2), for the did-you-mean of a root written without `ctx.`. */
const CTX_NAMES: ReadonlySet<string> = new Set(['request', 'timestamp_epoch', 'request_id', 'auth']);

const constNode = (value: unknown): Node => ({ fn: () => value, pure: true, minSlot: Infinity, constant: true, value });

/** The variables of a constant folded at boot: none. */
const NO_VARS: Readonly<Record<string, unknown>> = Object.freeze({});

export class ExprCompiler {
  readonly diagnostics: Diagnostic[] = [];
  /**
   * Some evaluator below builds what the size budget counts (a run-time template, a loop, a function
   * call): evaluations must then start by finding their budget (budget.ts). Expressions that only
   * read (`ctx.request.query.limit`, `{ id = steps.find.row.id }`) skip that entirely.
   */
  charges = false;

  constructor(private readonly functions: FunctionTable) {}

  compile(e: ast.Expression, scope: ExprScope): Node {
    const base = scope.layout.size;
    const node = this.raw(e, scope);
    if (node.constant || !node.pure || node.minSlot < base) return node;
    return this.fold(node, e.range, scope.layout.size);
  }

  /**
   * A URL (url.ts): a template at its top, or as a branch of a conditional at its top, is compiled
   * knowing which part of the URL each of its values lands in, and encodes each for its part.
   * Anything else computes a whole URL, recorded in `shape.computed`.
   */
  compileUrl(e: ast.Expression, scope: ExprScope, shape: UrlShape): Node {
    const base = scope.layout.size;
    const node = this.rawUrl(e, scope, shape);
    if (node.constant || !node.pure || node.minSlot < base) return node;
    return this.fold(node, e.range, scope.layout.size);
  }

  private rawUrl(e: ast.Expression, scope: ExprScope, shape: UrlShape): Node {
    if (e.kind === 'Parenthesized') return this.compileUrl(e.expr, scope, shape);
    if (e.kind === 'Conditional') return this.conditional(e, scope, (branch) => this.compileUrl(branch, scope, shape));
    if (e.kind === 'Template' && !isWrap(e)) {
      const children: Node[] = [];
      const at = new UrlPosition(shape);
      const fn = this.parts(e.parts, scope, children, e.range, at);
      at.end();
      return { ...derived(children), fn };
    }
    const node = this.compile(e, scope);
    if (!node.constant) shape.computed.push({ range: e.range, references: staticReferences(e) });
    return node;
  }

  /** `unencoded(x)` and `url_encode(x)` in a URL: the author's own encoding (url.ts). */
  private authorEncoding(e: ast.Expression): UrlEncoding | undefined {
    if (e.kind !== 'FunctionCall') return undefined;
    const name = this.functions.get(e.name)?.name;
    return name === 'unencoded' || name === 'url_encode' ? 'author' : undefined;
  }

  /** Evaluates a closed pure node now. */
  private fold(node: Node, range: Range, frameSize: number): Node {
    try {
      const frame: Frame = frameSize === 0 ? EMPTY_FRAME : new Array<unknown>(frameSize);
      // A constant draws from a fresh budget of its own (budget.ts).
      return constNode(deepFreeze(node.fn(NO_VARS, frame, newExprBudget())));
    } catch (err) {
      if (!(err instanceof ExprEvalError)) throw err;
      this.diagnostics.push(err.toDiagnostic(range));
      const fail = (): never => {
        throw err;
      };
      return { fn: fail, pure: false, minSlot: Infinity, constant: false };
    }
  }

  private raw(e: ast.Expression, scope: ExprScope): Node {
    switch (e.kind) {
      case 'Literal':
        // String literals and template text arrive NFC-normalized from the parser (src/hcl/chars.ts nfc).
        return constNode(e.value);
      case 'Parenthesized':
        return this.compile(e.expr, scope);
      case 'Template':
        return this.template(e, scope);
      case 'ScopeTraversal':
        return this.scopeTraversal(e, scope);
      case 'RelativeTraversal': {
        const src = this.compile(e.source, scope);
        return { ...derived([src]), fn: genTraversal({ kind: 'fn', fn: src.fn }, e.steps) };
      }
      case 'Index': {
        const coll = this.compile(e.collection, scope);
        const key = this.compile(e.key, scope);
        const c = coll.fn;
        const k = key.fn;
        const range = e.range;
        const keyRange = e.key.range;
        return { ...derived([coll, key]), fn: (v, f, budget) => index(c(v, f, budget), k(v, f, budget), range, keyRange) };
      }
      case 'Splat': {
        const src = this.compile(e.source, scope);
        const { scope: inner, slot } = scope.splat();
        const each = this.compile(e.each, inner);
        this.charges = true;
        return { ...derived([src, each]), fn: splat(src.fn, slot, each.fn, e.range) };
      }
      case 'SplatItem': {
        const slot = scope.splatSlot;
        if (slot === undefined) {
          this.error('Invalid splat item', 'A splat item can only appear inside a splat expression.', e.range);
          return constNode(null);
        }
        return { fn: (_v, f) => f[slot], pure: true, minSlot: slot, constant: false };
      }
      case 'FunctionCall':
        return this.call(e, scope);
      case 'Conditional':
        return this.conditional(e, scope, (branch) => this.compile(branch, scope));
      case 'BinaryOp': {
        const l = this.compile(e.left, scope);
        const r = this.compile(e.right, scope);
        const kind = operandKind(e.op);
        let bad = false;
        if (kind !== 'any') {
          bad = !this.checkOperand(l, kind, e.left.range, 'Invalid operand', 'left operand');
          bad = !this.checkOperand(r, kind, e.right.range, 'Invalid operand', 'right operand') || bad;
        }
        // Already reported: keep it from being folded (and reported a second time).
        const node = derived([l, r]);
        return { ...node, pure: node.pure && !bad, fn: binary(e.op, { fn: l.fn, range: e.left.range }, { fn: r.fn, range: e.right.range }, e.range) };
      }
      case 'UnaryOp': {
        const x = this.compile(e.operand, scope);
        return { ...derived([x]), fn: unary(e.op, { fn: x.fn, range: e.operand.range }) };
      }
      case 'Tuple': {
        const items = e.items.map((i) => this.compile(i, scope));
        return { ...derived(items), fn: tuple(items.map((i) => i.fn)) };
      }
      case 'ObjectCons':
        return this.object(e, scope);
      case 'ForExpr':
        return this.forExpr(e, scope);
    }
  }

  /** `c ? a : b`; `branch` compiles each branch (as an expression, or as a URL). */
  private conditional(e: ast.Conditional, scope: ExprScope, branch: (x: ast.Expression) => Node): Node {
    const cond = this.compile(e.cond, scope);
    const then = branch(e.then);
    const other = branch(e.else);
    const badCond = !this.checkOperand(cond, 'bool', e.cond.range, 'Invalid conditional', 'condition');
    // A constant condition selects its branch at boot (`env("X") == "1" ? a : b`).
    if (cond.constant && !badCond && cond.value !== null) return primitiveToBool(cond.value) ? then : other;
    const c = cond.fn;
    const t = then.fn;
    const o = other.fn;
    const range = e.cond.range;
    const node = derived([cond, then, other]);
    return {
      ...node,
      pure: node.pure && !badCond,
      fn: (v, f, budget) => {
        const x = c(v, f, budget);
        if (x === true) return t(v, f, budget);
        if (x === false) return o(v, f, budget);
        const b = primitiveToBool(x);
        if (b === undefined) {
          throw new ExprEvalError(
            'Invalid conditional',
            x === null || x === undefined
              ? 'The condition value is null. Conditions must either be true or false.'
              : `The condition value must be a bool, not ${typeName(x)}.`,
            range,
          );
        }
        return b ? t(v, f, budget) : o(v, f, budget);
      },
    };
  }

  /** A constant operand of the wrong kind is reported at boot (HCL reports it at decode time). */
  private checkOperand(n: Node, kind: 'number' | 'bool', range: Range, summary: string, what: string): boolean {
    if (!n.constant) return true;
    const ok = kind === 'number' ? primitiveToNumber(n.value) !== undefined : primitiveToBool(n.value) !== undefined;
    if (!ok) {
      this.error(summary, `Unsuitable value for ${what}: a ${kind} is required, not ${typeName(n.value)}.`, range);
    }
    return ok;
  }

  private error(summary: string, detail: string, subject: Range, suggestion?: string): void {
    this.diagnostics.push({ severity: 'error', summary, detail, subject, ...(suggestion !== undefined ? { suggestion } : {}) });
  }

  private scopeTraversal(e: ast.ScopeTraversal, scope: ExprScope): Node {
    const slot = scope.local(e.root);
    if (slot !== undefined) {
      const local: Evaluator = (_v, f) => f[slot];
      return { fn: e.steps.length === 0 ? local : genTraversal({ kind: 'slot', slot }, e.steps), pure: true, minSlot: slot, constant: false };
    }
    if (!scope.roots.has(e.root)) {
      // `request.body.x` for `ctx.request.body.x` is a common slip: suggest the ctx-prefixed name.
      const suggestion = scope.roots.has('ctx') && CTX_NAMES.has(e.root) ? `ctx.${e.root}` : didYouMean(e.root, scope.names());
      this.error('Unknown variable', `There is no variable named "${e.root}".`, e.rootRange, suggestion);
      return { fn: () => null, pure: false, minSlot: Infinity, constant: false };
    }
    const root = e.root;
    const read: Evaluator = (v) => {
      const x = v[root];
      return x === undefined ? null : x;
    };
    return { fn: e.steps.length === 0 ? read : genTraversal({ kind: 'root', name: root }, e.steps), pure: false, minSlot: Infinity, constant: false };
  }

  private template(e: ast.Template, scope: ExprScope): Node {
    if (isWrap(e)) return this.compile((e.parts[0] as ast.TemplateInterp).expr, scope);
    const children: Node[] = [];
    const fn = this.parts(e.parts, scope, children, e.range);
    return { ...derived(children), fn };
  }

  /** `at`: the position in the URL, when the template is one (compileUrl). */
  private parts(parts: readonly ast.TemplatePart[], scope: ExprScope, children: Node[], range: Range, at?: UrlPosition): Evaluator {
    const fns: Evaluator[] = [];
    let literal = '';
    const flush = (): void => {
      if (literal !== '') {
        const s = literal;
        fns.push(() => s);
        literal = '';
      }
    };
    for (const p of parts) {
      switch (p.kind) {
        case 'TemplateLiteral':
          literal += p.value;
          at?.text(p.value, p.range);
          break;
        case 'TemplateInterp': {
          const n = this.compile(p.expr, scope);
          children.push(n);
          const s = n.constant ? primitiveToString(n.value) : undefined;
          if (s !== undefined && !(typeof n.value === 'object' && n.value !== null)) {
            // Constant parts are joined here, at boot: held to the budget of a folded constant.
            if (literal.length + s.length > MAX_BUILT_CHARS) {
              this.diagnostics.push(tooMuchText(p.expr.range).toDiagnostic());
              break;
            }
            literal += s;
            at?.text(s, p.expr.range);
          } else {
            flush();
            const part = interpPart(n.fn, p.expr.range);
            if (at === undefined) fns.push(part);
            else {
              const encoding = this.authorEncoding(p.expr) ?? (at.place === 'authority' ? 'none' : 'component');
              at.value({ place: at.place, encoding, range: p.expr.range, references: staticReferences(p.expr) });
              fns.push(encodedPart(part, encoding));
            }
          }
          break;
        }
        case 'TemplateIf': {
          flush();
          const cond = this.compile(p.cond, scope);
          children.push(cond);
          const thenAt = at?.clone();
          const elseAt = at?.clone();
          const then = this.parts(p.then, scope, children, p.range, thenAt);
          const otherwise = this.parts(p.else, scope, children, p.range, elseAt);
          if (at !== undefined) at.becomeEither(thenAt!, elseAt!);
          fns.push(ifPart(cond.fn, p.cond.range, then, otherwise));
          break;
        }
        case 'TemplateFor': {
          flush();
          const coll = this.compile(p.collection, scope);
          children.push(coll);
          const names = p.keyVar !== undefined ? [p.keyVar, p.valueVar] : [p.valueVar];
          const { scope: inner, slots } = scope.bind(names);
          const keySlot = p.keyVar !== undefined ? slots[0] : undefined;
          const valueSlot = slots[slots.length - 1]!;
          // The body starts where the template is; after it, the URL is where the body left it (or,
          // after no iteration, where it was): the later of the two.
          const bodyAt = at?.clone();
          const body = this.parts(p.body, inner, children, p.range, bodyAt);
          if (at !== undefined) at.becomeEither(at.clone(), bodyAt!);
          this.charges = true;
          fns.push(forPart(coll.fn, p.collection.range, keySlot, valueSlot, body, p.range));
          break;
        }
      }
    }
    flush();
    if (fns.length > 1) this.charges = true;
    return concat(fns, range);
  }

  private object(e: ast.ObjectCons, scope: ExprScope): Node {
    const children: Node[] = [];
    const keys: (string | Evaluator)[] = [];
    const keyRanges: Range[] = [];
    const vals: Evaluator[] = [];
    for (const item of e.items) {
      let key: string | Evaluator;
      if (item.bareKey && item.key.kind === 'Literal') key = String(item.key.value);
      else if (item.bareKey && item.key.kind === 'ScopeTraversal' && item.key.steps.length === 0) key = item.key.root;
      else if (item.key.kind === 'ScopeTraversal') {
        // `{foo.bar = 1}`: HCL refuses to guess between a reference and a dotted name.
        this.error(
          'Ambiguous attribute key',
          "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal.",
          item.key.range,
        );
        key = item.key.root;
      } else {
        const k = this.compile(item.key, scope);
        children.push(k);
        const s = k.constant ? (typeof k.value === 'object' && k.value !== null ? undefined : primitiveToString(k.value)) : undefined;
        if (k.constant && s === undefined) {
          this.error(
            'Invalid object key',
            k.value === null ? "Can't use a null value as an object key." : `Object keys must be strings, not ${typeName(k.value)}.`,
            item.key.range,
          );
        }
        key = s !== undefined ? s : k.fn;
      }
      const v = this.compile(item.value, scope);
      children.push(v);
      keys.push(key);
      keyRanges.push(item.key.range);
      vals.push(v.fn);
    }
    const n = keys.length;
    let fn: Evaluator;
    if (keys.every((k): k is string => typeof k === 'string') && !keys.includes('__proto__')) {
      // The common case: static keys, built as a generated object literal (codegen.ts says why).
      fn = n === 0 ? () => ({}) : genObject(keys, vals);
    } else {
      fn = (v, f, budget) => {
        const o: Record<string, unknown> = {};
        for (let i = 0; i < n; i++) {
          const k = keys[i]!;
          let name: string;
          if (typeof k === 'string') name = k;
          else {
            const kv = k(v, f, budget);
            const s = typeof kv === 'string' ? kv : typeof kv === 'object' && kv !== null ? undefined : primitiveToString(kv);
            if (s === undefined) {
              throw new ExprEvalError(
                'Invalid object key',
                kv === null || kv === undefined ? "Can't use a null value as an object key." : `Object keys must be strings, not ${typeName(kv)}.`,
                keyRanges[i]!,
              );
            }
            name = s;
          }
          setKey(o, name, vals[i]!(v, f, budget));
        }
        return o;
      };
    }
    return { ...derived(children), fn };
  }

  private forExpr(e: ast.ForExpr, scope: ExprScope): Node {
    const coll = this.compile(e.collection, scope);
    const names = e.keyVar !== undefined ? [e.keyVar, e.valueVar] : [e.valueVar];
    const { scope: inner, slots } = scope.bind(names);
    const keySlot = e.keyVar !== undefined ? slots[0] : undefined;
    const valueSlot = slots[slots.length - 1]!;
    const key = e.isObject && e.keyExpr ? this.compile(e.keyExpr, inner) : undefined;
    const value = this.compile(e.valueExpr, inner);
    const cond = e.cond ? this.compile(e.cond, inner) : undefined;
    const children = [coll, value, ...(key ? [key] : []), ...(cond ? [cond] : [])];
    const parts = {
      collection: coll.fn,
      collectionRange: e.collection.range,
      keySlot,
      valueSlot,
      valueExpr: value.fn,
      group: e.group,
      range: e.range,
      ...(key && e.keyExpr ? { keyExpr: key.fn, keyRange: e.keyExpr.range } : {}),
      ...(cond && e.cond ? { cond: cond.fn, condRange: e.cond.range } : {}),
    };
    this.charges = true;
    return { ...derived(children), fn: e.isObject ? forObject(parts) : forTuple(parts) };
  }

  private call(e: ast.FunctionCall, scope: ExprScope): Node {
    const args = e.args.map((a) => this.compile(a, scope));
    const def = this.functions.get(e.name);
    if (!def) {
      const suggestion = didYouMean(e.name, this.functions.keys());
      this.error('Call to unknown function', `There is no function named "${e.name}".`, e.nameRange, suggestion);
      return { fn: () => null, pure: false, minSlot: Infinity, constant: false };
    }
    const fixed = e.expandFinal ? args.length - 1 : args.length;
    const before = this.diagnostics.length;
    if (!e.expandFinal && fixed < def.minArgs) {
      const missing = def.params[fixed] ?? def.variadic ?? 'argument';
      this.error('Not enough function arguments', `Function "${e.name}" expects ${describeArity(def)}. Missing value for "${missing}".`, e.range);
    } else if (fixed > def.maxArgs) {
      this.error('Too many function arguments', `Function "${e.name}" expects only ${describeArity(def)}.`, e.args[def.maxArgs]?.range ?? e.range);
    }
    const node = derived(args);
    this.charges = true;
    // A call already reported for its arity is not folded (that would report it twice).
    const arityOk = this.diagnostics.length === before;
    const impl = arityOk ? this.specialize(def, e, args) : undefined;
    return {
      ...node,
      pure: node.pure && def.pure && arityOk,
      fn: callEvaluator(
        def,
        e,
        args.map((a) => a.fn),
        impl,
      ),
    };
  }

  /** A function's implementation specialised for its constant arguments, once, at boot. */
  private specialize(def: FunctionDef, e: ast.FunctionCall, args: readonly Node[]): FunctionImpl | undefined {
    if (!def.specialize || e.expandFinal) return undefined;
    try {
      return def.specialize(args.map((a) => (a.constant ? { value: a.value } : undefined)));
    } catch (err) {
      if (!(err instanceof FunctionArgError)) throw err;
      const param = def.params[err.argIndex] ?? def.variadic ?? 'argument';
      this.error('Invalid function argument', `Invalid value for "${param}" parameter: ${err.message}.`, e.args[err.argIndex]?.range ?? e.range);
      return undefined;
    }
  }
}

/** Purity and slot use of a node built from children. */
function derived(children: readonly Node[]): Node {
  let pure = true;
  let minSlot = Infinity;
  for (const c of children) {
    if (!c.pure) pure = false;
    if (c.minSlot < minSlot) minSlot = c.minSlot;
  }
  return { fn: () => null, pure, minSlot, constant: false };
}

function tuple(items: readonly Evaluator[]): Evaluator {
  const n = items.length;
  if (n === 0) return () => [];
  if (n === 1) {
    const a = items[0]!;
    return (v, f, budget) => [a(v, f, budget)];
  }
  if (n === 2) {
    const [a, b] = items as [Evaluator, Evaluator];
    return (v, f, budget) => [a(v, f, budget), b(v, f, budget)];
  }
  return genTuple(items);
}
