/**
 * Runs the HCL specsuite (hashicorp/hcl specsuite/tests, read in place from ../shared/conformance)
 * against our parser (src/hcl) and evaluator (src/expr):
 *
 *     npm run conformance:hcl -- [dir]        (default ../shared/conformance/hcl/specsuite/tests)
 *
 * For each `*.t`, the sibling `.hcl` is parsed and decoded with the sibling `.hcldec` spec, then
 * compared with the expected `result` (and `result_type`), or with the expected `diagnostics`
 * (error ranges: line, column, byte), as hclspecsuite does with hcldec.
 *
 * The hcldec spec language is implemented here for what the suite uses: object, array, attr (name,
 * type, required), block, block_list, block_set, block_map (labels), literal, default, plus the
 * top-level `variables` block. Type expressions: any, string, number, bool, list, set, map, object, tuple.
 *
 * Numbers: HCL computes with 512-bit binary floats; the product uses JS doubles. This runner has an
 * exact mode (on by default; `--doubles` turns it off) that recomputes literal-only arithmetic with
 * 512-bit floats (src/expr/exact) and compares numbers as cty does, so `add_big` / `mod_frac` are
 * checked to HCL's precision rather than approximately.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic, Range } from '../src/diag/index.js';
import type { Attribute, Block, Body, Expression } from '../src/hcl/ast.js';
import { parseFile } from '../src/hcl/index.js';
import { BigFloat } from '../src/expr/exact/bigfloat.js';
import { exactOverlay } from '../src/expr/exact/overlay.js';
import { compileExpression, ExprEvalError, equals, formatNumber, type Reference } from '../src/expr/index.js';

// ------------------------------------------------------------------ command line

const argv = process.argv.slice(2);
const exact = !argv.includes('--doubles');
const verbose = argv.includes('--verbose') || argv.includes('-v');
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(argv.find((a) => !a.startsWith('-')) ?? join(here, '../../shared/conformance/hcl/specsuite/tests'));

// ------------------------------------------------------------------ values and types

type Type =
  | { kind: 'any' | 'string' | 'number' | 'bool' }
  | { kind: 'list' | 'set' | 'map'; elem: Type }
  | { kind: 'object'; attrs: Map<string, Type> }
  | { kind: 'tuple'; elems: Type[] };

class DecodeError extends Error {
  constructor(
    readonly summary: string,
    readonly detail: string,
    readonly range?: Range,
  ) {
    super(`${summary}: ${detail}`);
  }
}

function typeFromExpr(e: Expression): Type {
  if (e.kind === 'ScopeTraversal' && e.steps.length === 0) {
    if (['any', 'string', 'number', 'bool'].includes(e.root)) return { kind: e.root as 'any' };
  }
  if (e.kind === 'Template' && e.parts.length === 1 && e.parts[0]!.kind === 'TemplateLiteral') {
    // The older spec format wrote types as strings ("string").
    const name = e.parts[0].value;
    if (['any', 'string', 'number', 'bool'].includes(name)) return { kind: name as 'any' };
  }
  if (e.kind === 'FunctionCall' && e.args.length === 1) {
    const arg = e.args[0]!;
    switch (e.name) {
      case 'list':
      case 'set':
      case 'map':
        return { kind: e.name, elem: typeFromExpr(arg) };
      case 'object':
        if (arg.kind === 'ObjectCons') {
          const attrs = new Map<string, Type>();
          for (const item of arg.items) attrs.set(keyName(item.key), typeFromExpr(item.value));
          return { kind: 'object', attrs };
        }
        break;
      case 'tuple':
        if (arg.kind === 'Tuple') return { kind: 'tuple', elems: arg.items.map(typeFromExpr) };
        break;
    }
  }
  throw new DecodeError('Invalid type specification', 'not a type expression this runner understands', e.range);
}

function keyName(k: Expression): string {
  if (k.kind === 'Literal') return String(k.value);
  if (k.kind === 'ScopeTraversal' && k.steps.length === 0) return k.root;
  if (k.kind === 'Template' && k.parts.every((p) => p.kind === 'TemplateLiteral')) return k.parts.map((p) => (p as { value: string }).value).join('');
  throw new DecodeError('Invalid key', 'a static key is required', k.range);
}

function typeString(t: Type): string {
  switch (t.kind) {
    case 'list':
    case 'set':
    case 'map':
      return `${t.kind}(${typeString(t.elem)})`;
    case 'object':
      return `object({${[...t.attrs].map(([k, v]) => `${k}=${typeString(v)}`).join(', ')}})`;
    case 'tuple':
      return `tuple([${t.elems.map(typeString).join(', ')}])`;
    default:
      return t.kind;
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof BigFloat);

/** HCL's conversion of a value to a type (the subset the suite needs). */
function convert(v: unknown, t: Type, path = ''): unknown {
  if (v === null || v === undefined || t.kind === 'any') return v ?? null;
  const fail = (): never => {
    throw new DecodeError('Incorrect attribute value type', `Inappropriate value${path ? ` for ${path}` : ''}: ${typeString(t)} required.`);
  };
  switch (t.kind) {
    case 'string':
      if (typeof v === 'string') return v;
      if (typeof v === 'number') return formatNumber(v);
      if (v instanceof BigFloat) return v.toDecimal(160);
      if (typeof v === 'boolean') return String(v);
      return fail();
    case 'number':
      if (typeof v === 'number' || v instanceof BigFloat) return v;
      if (typeof v === 'string' && /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(v)) return exact ? BigFloat.parse(v) : Number(v);
      return fail();
    case 'bool':
      if (typeof v === 'boolean') return v;
      if (v === 'true' || v === 'false') return v === 'true';
      return fail();
    case 'list':
    case 'set':
      if (!Array.isArray(v)) return fail();
      return v.map((x, i) => convert(x, t.elem, `${path}[${i}]`));
    case 'map':
      if (!isObj(v)) return fail();
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, convert(x, t.elem, `${path}.${k}`)]));
    case 'object': {
      if (!isObj(v)) return fail();
      const out: Record<string, unknown> = {};
      for (const [k, at] of t.attrs) out[k] = convert(v[k] ?? null, at, `${path}.${k}`);
      for (const k of Object.keys(v)) if (!t.attrs.has(k)) fail();
      return out;
    }
    case 'tuple':
      if (!Array.isArray(v) || v.length !== t.elems.length) return fail();
      return v.map((x, i) => convert(x, t.elems[i]!, `${path}[${i}]`));
  }
}

/** Whether a decoded value has the type (null conforms to any type). */
function conforms(v: unknown, t: Type): boolean {
  if (v === null || t.kind === 'any') return true;
  switch (t.kind) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' || v instanceof BigFloat;
    case 'bool':
      return typeof v === 'boolean';
    case 'list':
    case 'set':
      return Array.isArray(v) && v.every((x) => conforms(x, t.elem));
    case 'map':
      return isObj(v) && Object.values(v).every((x) => conforms(x, t.elem));
    case 'object':
      return isObj(v) && Object.keys(v).length === t.attrs.size && [...t.attrs].every(([k, at]) => Object.hasOwn(v, k) && conforms(v[k], at));
    case 'tuple':
      return Array.isArray(v) && v.length === t.elems.length && v.every((x, i) => conforms(x, t.elems[i]!));
  }
}

/** Equality as cty compares results: numbers by value at 512 bits in exact mode. */
function same(a: unknown, b: unknown): boolean {
  if (a instanceof BigFloat || b instanceof BigFloat) {
    const x = toBig(a);
    const y = toBig(b);
    return x !== undefined && y !== undefined && x.equals(y);
  }
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObj(a)) {
    if (!isObj(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return equals(a, b);
}

function toBig(v: unknown): BigFloat | undefined {
  if (v instanceof BigFloat) return v;
  // A double meets an exact number through its shortest decimal form, as a JSON round trip would.
  if (typeof v === 'number') return BigFloat.parse(formatNumber(v));
  return undefined;
}

function show(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x instanceof BigFloat ? `#${x.toDecimal(70)}` : x));
}

// ------------------------------------------------------------------ hcldec specs

type Spec =
  | { kind: 'object'; children: { name: string; spec: Spec }[] }
  | { kind: 'array'; children: Spec[] }
  | { kind: 'attr'; name: string; type?: Type; required: boolean }
  | { kind: 'block'; blockType: string; required: boolean; nested: Spec }
  | { kind: 'block_list' | 'block_set'; blockType: string; min: number; max: number; nested: Spec }
  | { kind: 'block_map'; blockType: string; labels: string[]; nested: Spec }
  | { kind: 'literal'; value: unknown }
  | { kind: 'default'; children: Spec[] };

const SPEC_KINDS = new Set(['object', 'array', 'attr', 'block', 'block_list', 'block_set', 'block_map', 'literal', 'default']);

function attrs(body: Body): Map<string, Attribute> {
  const m = new Map<string, Attribute>();
  for (const i of body.items) if (i.kind === 'Attribute') m.set(i.name, i);
  return m;
}

function blocks(body: Body): Block[] {
  return body.items.filter((i): i is Block => i.kind === 'Block');
}

/** A constant expression of the spec file (no variables). */
function constant(e: Expression, vars: Record<string, unknown> = {}): unknown {
  const { compiled, diagnostics } = compileExpression(e, { roots: new Set(Object.keys(vars)) });
  if (diagnostics.length > 0) throw new DecodeError(diagnostics[0]!.summary, diagnostics[0]!.detail ?? '', diagnostics[0]!.subject);
  return exact ? exactOverlay(e, compiled.evaluate(vars)) : compiled.evaluate(vars);
}

function specFromBlock(b: Block, defaultName?: string): Spec {
  const a = attrs(b.body);
  const nestedSpecs = blocks(b.body).filter((x) => SPEC_KINDS.has(x.type));
  const str = (name: string): string | undefined => {
    const x = a.get(name);
    return x ? String(constant(x.expr)) : undefined;
  };
  const nameOf = (attrName: string): string => {
    const n = str(attrName) ?? defaultName;
    if (n === undefined) throw new DecodeError('Missing name', `a "${attrName}" is required for ${b.type}`, b.range);
    return n;
  };
  const single = (): Spec => {
    if (nestedSpecs.length !== 1) throw new DecodeError('Invalid spec', `${b.type} needs exactly one nested spec`, b.range);
    return specFromBlock(nestedSpecs[0]!);
  };
  const bool = (name: string): boolean => (a.has(name) ? constant(a.get(name)!.expr) === true : false);
  const num = (name: string, d: number): number => (a.has(name) ? Number(constant(a.get(name)!.expr)) : d);
  switch (b.type) {
    case 'object':
      return { kind: 'object', children: nestedSpecs.map((c) => ({ name: c.labels[0]!, spec: specFromBlock(c, c.labels[0]) })) };
    case 'array':
      return { kind: 'array', children: nestedSpecs.map((c) => specFromBlock(c)) };
    case 'attr':
      return {
        kind: 'attr',
        name: nameOf('name'),
        required: bool('required'),
        ...(a.has('type') ? { type: typeFromExpr(a.get('type')!.expr) } : {}),
      };
    case 'block':
      return { kind: 'block', blockType: nameOf('block_type'), required: bool('required'), nested: single() };
    case 'block_list':
    case 'block_set':
      return { kind: b.type, blockType: nameOf('block_type'), min: num('min_items', 0), max: num('max_items', 0), nested: single() };
    case 'block_map': {
      const labels = a.has('labels') ? (constant(a.get('labels')!.expr) as string[]) : [];
      return { kind: 'block_map', blockType: nameOf('block_type'), labels, nested: single() };
    }
    case 'literal':
      return { kind: 'literal', value: constant(a.get('value')!.expr) };
    case 'default':
      return { kind: 'default', children: nestedSpecs.map((c) => specFromBlock(c, defaultName)) };
    default:
      throw new DecodeError('Unsupported spec', `spec block type "${b.type}" is not implemented by this runner`, b.typeRange);
  }
}

interface Schema {
  attrs: Map<string, boolean>;
  blocks: Set<string>;
}

function impliedSchema(spec: Spec, into: Schema = { attrs: new Map(), blocks: new Set() }): Schema {
  switch (spec.kind) {
    case 'object':
      for (const c of spec.children) impliedSchema(c.spec, into);
      break;
    case 'array':
      for (const c of spec.children) impliedSchema(c, into);
      break;
    case 'default':
      if (spec.children[0]) impliedSchema(spec.children[0], into);
      break;
    case 'attr':
      into.attrs.set(spec.name, spec.required || into.attrs.get(spec.name) === true);
      break;
    case 'block':
    case 'block_list':
    case 'block_set':
    case 'block_map':
      into.blocks.add(spec.blockType);
      break;
    case 'literal':
      break;
  }
  return into;
}

interface DecodeContext {
  vars: Record<string, unknown>;
  diags: Diagnostic[];
  references: Reference[];
}

function error(ctx: DecodeContext, summary: string, detail: string, subject?: Range): void {
  ctx.diags.push({ severity: 'error', summary, detail, ...(subject ? { subject } : {}) });
}

/** Validates a body against the spec's implied schema (hcl.Body.Content), then decodes it. */
function decodeBody(body: Body, spec: Spec, ctx: DecodeContext): unknown {
  const schema = impliedSchema(spec);
  for (const item of body.items) {
    if (item.kind === 'Attribute') {
      if (!schema.attrs.has(item.name)) error(ctx, 'Unsupported argument', `An argument named "${item.name}" is not expected here.`, item.nameRange);
    } else if (!schema.blocks.has(item.type)) {
      error(ctx, 'Unsupported block type', `Blocks of type "${item.type}" are not expected here.`, item.typeRange);
    }
  }
  const present = attrs(body);
  for (const [name, required] of schema.attrs) {
    if (required && !present.has(name)) error(ctx, 'Missing required argument', `The argument "${name}" is required, but no definition was found.`, body.range);
  }
  return decodeValue(body, spec, ctx);
}

function decodeValue(body: Body, spec: Spec, ctx: DecodeContext): unknown {
  switch (spec.kind) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const c of spec.children) out[c.name] = decodeValue(body, c.spec, ctx);
      return out;
    }
    case 'array':
      return spec.children.map((c) => decodeValue(body, c, ctx));
    case 'literal':
      return spec.value;
    case 'default':
      for (const c of spec.children) {
        const v = decodeValue(body, c, ctx);
        if (v !== null) return v;
      }
      return null;
    case 'attr': {
      const a = attrs(body).get(spec.name);
      if (!a) return null;
      const { compiled, diagnostics } = compileExpression(a.expr, { roots: new Set(Object.keys(ctx.vars)) });
      ctx.references.push(...compiled.references);
      if (diagnostics.length > 0) {
        ctx.diags.push(...diagnostics);
        return null;
      }
      let v: unknown;
      try {
        v = compiled.evaluate(ctx.vars);
      } catch (e) {
        if (!(e instanceof ExprEvalError)) throw e;
        ctx.diags.push(e.toDiagnostic());
        return null;
      }
      if (exact) v = exactOverlay(a.expr, v);
      if (!spec.type) return v;
      try {
        return convert(v, spec.type);
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
        error(ctx, e.summary, e.detail, a.expr.range);
        return null;
      }
    }
    case 'block': {
      const found = blocks(body).filter((b) => b.type === spec.blockType);
      if (found.length > 1) error(ctx, `Duplicate ${spec.blockType} block`, `Only one ${spec.blockType} block is allowed.`, found[1]!.typeRange);
      if (found.length === 0) {
        if (spec.required) error(ctx, `Missing ${spec.blockType} block`, `A ${spec.blockType} block is required.`, body.range);
        return null;
      }
      const b = found[0]!;
      if (b.labels.length > 0) error(ctx, `Extraneous label for ${spec.blockType}`, 'No labels are expected for this block.', b.labelRanges[0]);
      return decodeBody(b.body, spec.nested, ctx);
    }
    case 'block_list':
    case 'block_set': {
      const found = blocks(body).filter((b) => b.type === spec.blockType);
      if (found.length < spec.min)
        error(ctx, `Insufficient ${spec.blockType} blocks`, `At least ${spec.min} "${spec.blockType}" blocks are required.`, body.range);
      if (spec.max > 0 && found.length > spec.max)
        error(ctx, `Too many ${spec.blockType} blocks`, `No more than ${spec.max} "${spec.blockType}" blocks are allowed.`, found[spec.max]!.typeRange);
      return found.map((b) => {
        if (b.labels.length > 0) error(ctx, `Extraneous label for ${spec.blockType}`, 'No labels are expected for this block.', b.labelRanges[0]);
        return decodeBody(b.body, spec.nested, ctx);
      });
    }
    case 'block_map': {
      const out: Record<string, unknown> = {};
      for (const b of blocks(body).filter((x) => x.type === spec.blockType)) {
        if (b.labels.length !== spec.labels.length) {
          const detail = `Blocks of type "${spec.blockType}" need ${spec.labels.length} label(s): ${spec.labels.join(', ')}.`;
          error(
            ctx,
            b.labels.length < spec.labels.length ? `Missing ${spec.labels[b.labels.length]} for ${spec.blockType}` : `Extraneous label for ${spec.blockType}`,
            detail,
            b.typeRange,
          );
          continue;
        }
        let level = out;
        b.labels.forEach((label, i) => {
          if (i === b.labels.length - 1) {
            if (Object.hasOwn(level, label))
              error(ctx, `Duplicate ${spec.blockType} block`, `A block for ${b.labels.join(' ')} was already defined.`, b.typeRange);
            level[label] = decodeBody(b.body, spec.nested, ctx);
          } else {
            level = (level[label] ??= {}) as Record<string, unknown>;
          }
        });
      }
      return out;
    }
  }
}

// ------------------------------------------------------------------ test files

interface ExpectedDiag {
  from: { line: number; column: number; byte: number };
  to: { line: number; column: number; byte: number };
}

interface TestFile {
  result?: unknown;
  hasResult: boolean;
  resultType?: Type;
  diagnostics?: ExpectedDiag[];
  traversals?: { ref: string; range?: ExpectedDiag }[];
}

function pos(b: Block | undefined): { line: number; column: number; byte: number } {
  if (!b) return { line: 0, column: 0, byte: 0 };
  const a = attrs(b.body);
  const n = (k: string): number => Number(a.get(k) ? constant(a.get(k)!.expr) : 0);
  return { line: n('line'), column: n('column'), byte: n('byte') };
}

function rangeBlock(b: Block): ExpectedDiag {
  const find = (t: string) => blocks(b.body).find((x) => x.type === t);
  return { from: pos(find('from')), to: pos(find('to')) };
}

function refText(e: Expression): string {
  if (e.kind === 'ScopeTraversal') return [e.root, ...e.steps.map((s) => (s.kind === 'Attr' ? `.${s.name}` : `[${JSON.stringify(s.key)}]`))].join('');
  return '<unsupported>';
}

function loadTest(file: string): TestFile {
  const { file: f, diagnostics } = parseFile(readFileSync(file, 'utf8'), file);
  if (diagnostics.some((d) => d.severity === 'error')) throw new DecodeError('Invalid test file', diagnostics[0]!.summary, diagnostics[0]!.subject);
  const a = attrs(f.body);
  const t: TestFile = { hasResult: a.has('result') };
  if (a.has('result_type')) t.resultType = typeFromExpr(a.get('result_type')!.expr);
  if (a.has('result')) {
    t.result = constant(a.get('result')!.expr);
    // As hclspecsuite does: the expectation is converted to the result type first.
    if (t.resultType) t.result = convert(t.result, t.resultType);
  }
  for (const b of blocks(f.body)) {
    if (b.type === 'diagnostics')
      t.diagnostics = blocks(b.body)
        .filter((x) => x.type === 'error')
        .map(rangeBlock);
    if (b.type === 'traversals') {
      t.traversals = blocks(b.body)
        .filter((x) => x.type === 'traversal')
        .map((x) => {
          const ref = attrs(x.body).get('ref');
          const r = blocks(x.body).find((y) => y.type === 'range');
          return { ref: ref ? refText(ref.expr) : '', ...(r ? { range: rangeBlock(r) } : {}) };
        });
    }
  }
  return t;
}

function loadSpec(file: string): { spec: Spec; vars: Record<string, unknown> } {
  const { file: f, diagnostics } = parseFile(readFileSync(file, 'utf8'), file);
  if (diagnostics.some((d) => d.severity === 'error')) throw new DecodeError('Invalid spec file', diagnostics[0]!.summary, diagnostics[0]!.subject);
  const vars: Record<string, unknown> = {};
  let spec: Spec | undefined;
  for (const b of blocks(f.body)) {
    if (b.type === 'variables') for (const [k, a] of attrs(b.body)) vars[k] = constant(a.expr);
    else if (b.type === 'function') continue;
    else if (spec) throw new DecodeError('Invalid spec file', 'only one top-level spec block is allowed', b.range);
    else spec = specFromBlock(b);
  }
  if (!spec) throw new DecodeError('Invalid spec file', 'no spec block', f.body.range);
  return { spec, vars };
}

// ------------------------------------------------------------------ runner

function findTests(dir: string): string[] {
  // hclspecsuite's order: the directory's tests, then its subdirectories, each sorted by name.
  const names = readdirSync(dir)
    .filter((n) => !n.startsWith('.'))
    .sort();
  const tests = names.filter((n) => n.endsWith('.t')).map((n) => join(dir, n));
  const subdirs = names.filter((n) => statSync(join(dir, n)).isDirectory());
  return [...tests, ...subdirs.flatMap((d) => findTests(join(dir, d)))];
}

const fmtPos = (p: { line: number; column: number; byte: number }) => `${p.line}:${p.column}(${p.byte})`;
const fmtRange = (r: ExpectedDiag) => `${fmtPos(r.from)}-${fmtPos(r.to)}`;

function runTest(tFile: string): string[] {
  const base = tFile.slice(0, -2);
  const test = loadTest(tFile);
  if (!existsSync(base + '.hcldec')) return ['missing .hcldec file'];
  const { spec, vars } = loadSpec(base + '.hcldec');
  const input = base + '.hcl';
  if (!existsSync(input)) return ['missing .hcl file (only native syntax is run)'];
  const parsed = parseFile(readFileSync(input, 'utf8'), input);
  const ctx: DecodeContext = { vars, diags: [...parsed.diagnostics], references: [] };
  let value: unknown = null;
  // hcldec stops after syntax errors, so decoding errors are not added to them.
  if (!parsed.diagnostics.some((d) => d.severity === 'error')) value = decodeBody(parsed.file.body, spec, ctx);
  const errors = ctx.diags.filter((d) => d.severity === 'error');
  const problems: string[] = [];

  if (test.diagnostics) {
    const got = errors.map((d) => ({ d, r: d.subject ? { from: d.subject.start, to: d.subject.end } : undefined }));
    const unmatched = [...got];
    for (const want of test.diagnostics) {
      const i = unmatched.findIndex((g) => g.r && fmtRange(g.r) === fmtRange(want));
      if (i >= 0) unmatched.splice(i, 1);
      else
        problems.push(
          `expected an error at ${fmtRange(want)}; got ${got.map((g) => (g.r ? fmtRange(g.r) : 'no range') + ' ' + g.d.summary).join('; ') || 'none'}`,
        );
    }
    for (const g of unmatched) problems.push(`unexpected error ${g.r ? fmtRange(g.r) : ''} ${g.d.summary}: ${g.d.detail ?? ''}`);
    return problems;
  }
  for (const d of errors)
    problems.push(`unexpected error ${d.subject ? fmtRange({ from: d.subject.start, to: d.subject.end }) : ''} ${d.summary}: ${d.detail ?? ''}`);
  if (problems.length > 0) return problems;
  if (test.hasResult && !same(value, test.result)) problems.push(`result ${show(value)}\n      expected ${show(test.result)}`);
  if (test.resultType && !conforms(value, test.resultType)) problems.push(`result ${show(value)} does not have type ${typeString(test.resultType)}`);
  if (test.traversals) {
    const got = ctx.references.map((r) => r.root + r.path.map((p) => (typeof p === 'string' ? `.${p}` : `[${JSON.stringify(p)}]`)).join(''));
    const want = test.traversals.map((t) => t.ref);
    if (JSON.stringify([...got].sort()) !== JSON.stringify([...want].sort()))
      problems.push(`traversals ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }
  return problems;
}

function main(): void {
  if (!existsSync(root)) {
    console.error(`specsuite directory not found: ${root}`);
    process.exit(2);
  }
  const tests = findTests(root);
  let passed = 0;
  console.log(`HCL specsuite: ${root} (${exact ? 'exact 512-bit numbers' : 'JS doubles'})`);
  for (const t of tests) {
    const name = relative(root, t).slice(0, -2);
    let problems: string[];
    try {
      problems = runTest(t);
    } catch (e) {
      problems = [`harness error: ${e instanceof Error ? e.message : String(e)}`];
      if (verbose && e instanceof Error) problems.push(e.stack ?? '');
    }
    if (problems.length === 0) {
      passed++;
      console.log(`PASS ${name}`);
    } else {
      console.log(`FAIL ${name}`);
      for (const p of problems) console.log(`      ${p}`);
    }
  }
  const rate = tests.length === 0 ? 0 : (100 * passed) / tests.length;
  console.log(`\n${passed}/${tests.length} passed (${rate.toFixed(1)}%)`);
  process.exitCode = passed === tests.length ? 0 : 1;
}

main();
