// Runs starlark-go's test scripts against our interpreter (src/starlark).
//
//   npm run conformance:starlark -- [dir]     (default ../shared/conformance/starlark-go)
//
// Conventions follow starlark-go's internal/chunkedfile and eval_test.go:
// a file is split into chunks at "\n---\n"; a line containing `### "regex"`
// (a Go string literal) expects an error matching regex reported at that line
// (compile errors: their position; runtime errors: the innermost frame in the
// file, as eval_test.go reports). A chunk may switch dialect options with
// "option:NAME". assert.star is loaded from the test directory at run time
// (never copied into the project) with the built-ins it needs.

import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, resolve, relative } from 'node:path';
import { compileModule, StarlarkError, type Program } from '../src/starlark/program.js';
import { parseFile } from '../src/starlark/syntax/parser.js';
import { SyntaxError_ } from '../src/starlark/syntax/scanner.js';
import { resolveFile, type FileOptions } from '../src/starlark/resolve.js';
import { callValue } from '../src/starlark/runtime.js';
import { repr } from '../src/starlark/values/repr.js';
import { makeJSONModule } from '../src/starlark/json.js';
import { nearest } from '../src/starlark/spell.js';
import { makeMathModule } from '../src/starlark/math.js';
import { Builtin, EvalErr, Float, List, Module, SValue, Struct, freezeValue, type Value } from '../src/starlark/values/types.js';
import { decodeUTF8 } from '../src/starlark/values/utf8.js';

/** Chunks that need Go-only extensions, with the reason. Keyed by "file:firstLineOfChunk". */
const SKIP: Record<string, string> = {
  'starlark/testdata/proto.star': 'needs lib/proto (Go protocol buffers)',
  'starlark/testdata/time.star': 'needs lib/time (Go time module)',
};

interface Chunk {
  source: string;
  startLine: number;
  want: Map<number, RegExp>;
  text: string;
}

function goUnquote(s: string): string {
  if (s.startsWith('`') && s.endsWith('`')) return s.slice(1, -1);
  if (s.startsWith('"') && s.endsWith('"')) {
    return s.slice(1, -1).replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)/g, (_, e: string) => {
      switch (e[0]) {
        case 'n':
          return '\n';
        case 't':
          return '\t';
        case 'r':
          return '\r';
        case '\\':
          return '\\';
        case '"':
          return '"';
        case "'":
          return "'";
        case 'x':
        case 'u':
          return String.fromCharCode(parseInt(e.slice(1), 16));
        default:
          return '\\' + e;
      }
    });
  }
  throw new Error(`not a quoted regexp: ${s}`);
}

/** Go RE2 pattern -> JS RegExp (the subset used by the tests). */
export function goRegExp(p: string): RegExp {
  let flags = 'u';
  const m = /^\(\?([a-z]+)\)/.exec(p);
  if (m) {
    if (m[1]!.includes('i')) flags += 'i';
    if (m[1]!.includes('s')) flags += 's';
    p = p.slice(m[0].length);
  }
  try {
    return new RegExp(p, flags);
  } catch {
    return new RegExp(p, flags.replace('u', ''));
  }
}

function readChunks(path: string): Chunk[] {
  const data = readFileSync(path, 'utf8');
  const chunks: Chunk[] = [];
  let linenum = 1;
  for (const text of data.split('\n---\n')) {
    const source = '\n'.repeat(linenum - 1) + text;
    const startLine = linenum;
    const want = new Map<number, RegExp>();
    for (const line of text.split('\n')) {
      const k = line.indexOf('###');
      if (k >= 0) want.set(linenum, goRegExp(goUnquote(line.slice(k + 3).trim())));
      linenum++;
    }
    linenum++;
    chunks.push({ source, startLine, want, text });
  }
  return chunks;
}

function optionsOf(text: string): Partial<FileOptions> {
  const has = (n: string) => text.includes('option:' + n);
  return {
    set: has('set'),
    while: has('while'),
    topLevelControl: has('toplevelcontrol'),
    globalReassign: has('globalreassign'),
    loadBindsGlobally: has('loadbindsglobally'),
    recursion: has('recursion'),
  };
}

class ChunkResult {
  problems: string[] = [];
  constructor(
    public chunk: Chunk,
    public file: string,
  ) {}
  gotError(line: number, msg: string): void {
    const rx = this.chunk.want.get(line);
    if (rx) {
      this.chunk.want.delete(line);
      if (!rx.test(msg)) this.problems.push(`${this.file}:${line}: error ${JSON.stringify(msg)} does not match pattern ${rx}`);
    } else {
      this.problems.push(`${this.file}:${line}: unexpected error: ${msg}`);
    }
  }
  done(): void {
    for (const [line, rx] of this.chunk.want) this.problems.push(`${this.file}:${line}: expected error matching ${rx}`);
  }
}

// ---------------------------------------------------------------- test built-ins

let current: ChunkResult | null = null;

/** eval_test.go's hasfields: an application-defined type with settable fields. */
class HasFields extends SValue {
  attrs = new Map<string, Value>();
  frozen = false;
  hashable = true;
  get type() {
    return 'hasfields';
  }
  override toString() {
    return 'hasfields';
  }
  override freeze() {
    if (!this.frozen) {
      this.frozen = true;
      for (const v of this.attrs.values()) freezeValue(v);
    }
  }
  attr(name: string): Value | undefined {
    return this.attrs.get(name);
  }
  attrNames(): string[] {
    return [...this.attrs.keys()].sort();
  }
  setField(name: string, v: Value): void {
    if (this.frozen) throw new EvalErr('cannot set field on a frozen hasfields');
    if (name.startsWith('no')) {
      const n = nearest(name, this.attrNames());
      throw new EvalErr(`no .${name} field${n ? ` (did you mean .${n}?)` : ''}`);
    }
    this.attrs.set(name, v);
  }
  binary(op: string, y: Value): Value | undefined {
    if (op === '+' && y instanceof List) return 42;
    return undefined;
  }
}

/** struct_test.go's gensym symbols: constructors of "branded" structs. */
class SymbolValue extends SValue {
  constructor(public readonly name: string) {
    super();
  }
  get type() {
    return 'symbol';
  }
  override toString() {
    return this.name;
  }
  callStar(args: Value[], kwargs: [string, Value][] | null): Value {
    if (args.length > 0) throw new EvalErr(`${this.name}: unexpected positional arguments`);
    return new Struct(new Map([...(kwargs ?? [])].sort((a, b) => (a[0] < b[0] ? -1 : 1))), this);
  }
}

/** eval_test.go's fib: the infinite Fibonacci sequence. */
class Fib extends SValue {
  get type() {
    return 'fib';
  }
  override toString() {
    return 'fib';
  }
  *iterate(): Iterator<Value> {
    let a = 0,
      b = 1;
    for (;;) {
      yield a;
      [a, b] = [b, a + b];
    }
  }
}

function floateq(x: number, y: number): boolean {
  if (x === y) return true;
  if (Number.isNaN(x)) return Number.isNaN(y);
  if (Number.isNaN(y)) return false;
  const b = new DataView(new ArrayBuffer(16));
  b.setFloat64(0, x);
  b.setFloat64(8, y);
  const xb = b.getBigUint64(0),
    yb = b.getBigUint64(8);
  return xb === yb + 1n || yb === xb + 1n;
}

function num(v: Value): number {
  if (v instanceof Float) return v.v;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  throw new EvalErr('floateq: want float');
}

let assertModule: Map<string, Value> | null = null;

function loadAssert(root: string): Map<string, Value> {
  if (assertModule) return assertModule;
  const path = join(root, 'starlarktest/assert.star');
  const pre: Record<string, Value> = {
    error: new Builtin('error', (args) => {
      if (args.length !== 1) throw new EvalErr(`error: got ${args.length} arguments, want 1`);
      const msg = typeof args[0] === 'string' ? args[0] : repr(args[0]!);
      if (current) current.problems.push(`${current.file}: assertion: ${decodeUTF8(msg)}`);
      return null;
    }),
    catch: new Builtin('catch', (args, _kwargs, _self, th) => {
      try {
        callValue(th, args[0]!, [], null);
      } catch (e) {
        if (e instanceof EvalErr) return e.msg;
        if (e instanceof RangeError) return 'Starlark stack overflow';
        throw e;
      }
      return null;
    }),
    matches: new Builtin('matches', (args) => goRegExp(decodeUTF8(args[0] as string)).test(decodeUTF8(args[1] as string))),
    module: new Builtin('module', (args, kwargs) => new Module(args[0] as string, new Map(kwargs ?? []))),
    _freeze: new Builtin('freeze', (args) => {
      freezeValue(args[0]!);
      return args[0]!;
    }),
    _floateq: new Builtin('floateq', (args) => floateq(num(args[0]!), num(args[1]!))),
  };
  const { program, errors } = compileModule(readFileSync(path, 'utf8'), 'assert.star', { predeclared: Object.keys(pre) });
  if (!program) throw new Error(`assert.star: ${errors.map((e) => `${e.line}:${e.col}: ${e.message}`).join('; ')}`);
  assertModule = program.init({ predeclared: pre, maxSteps: Infinity, timeoutMs: 60_000 }).globals();
  return assertModule;
}

// ---------------------------------------------------------------- runners

function runExecChunk(root: string, file: string, rel: string, chunk: Chunk, res: ChunkResult): void {
  const pre: Record<string, Value> = {
    hasfields: new Builtin('hasfields', () => new HasFields()),
    fibonacci: new Fib(),
    gensym: new Builtin('gensym', (args, kwargs) => {
      const name = args[0] ?? (kwargs ?? []).find(([k]) => k === 'name')?.[1];
      if (typeof name !== 'string') throw new EvalErr('gensym: missing argument for name');
      return new SymbolValue(name);
    }),
    struct: new Builtin('struct', (args, kwargs) => {
      if (args.length > 0) throw new EvalErr(`struct: unexpected positional arguments`);
      return new Struct(new Map(kwargs ?? []));
    }),
  };
  const { program, errors } = compileModule(chunk.source, file, { predeclared: Object.keys(pre), fileOptions: optionsOf(chunk.text) });
  if (!program) {
    // compile errors are matched against the ### annotations like runtime errors
    for (const e of errors) res.gotError(e.line, e.message);
    return;
  }
  try {
    runProgram(program, root, pre);
  } catch (e) {
    if (!(e instanceof StarlarkError)) throw e;
    const fr = [...e.callStack].reverse().find((f) => f.pos?.file === file);
    if (fr) res.gotError(fr.pos!.line, e.msg);
    else res.problems.push(`${rel}: error without position in file: ${e.backtrace()}`);
  }
}

function runProgram(program: Program, root: string, pre: Record<string, Value>): void {
  program.init({
    predeclared: pre,
    maxSteps: 100_000_000,
    timeoutMs: 60_000,
    maxDepth: 400,
    limits: { maxStringBytes: 1 << 30, maxElements: 1 << 30 },
    print: (s) => {
      if (process.env.STARLARK_CONFORMANCE_PRINT) console.log(s);
    },
    load: (m) => {
      if (m === 'assert.star') return loadAssert(root);
      if (m === 'json.star') return new Map([['json', makeJSONModule()]]);
      if (m === 'math.star') return new Map([['math', makeMathModule()]]);
      throw new EvalErr(`no such module: ${m}`);
    },
  });
}

function runParseChunk(file: string, chunk: Chunk, res: ChunkResult): void {
  try {
    parseFile(file, chunk.source);
  } catch (e) {
    if (e instanceof SyntaxError_) res.gotError(e.pos.line, e.msg);
    else throw e;
  }
}

function runResolveChunk(file: string, rel: string, chunk: Chunk, res: ChunkResult): void {
  let f: ReturnType<typeof parseFile>;
  try {
    f = parseFile(file, chunk.source);
  } catch (e) {
    if (e instanceof SyntaxError_) {
      res.problems.push(`${rel}:${e.pos.line}: parse error: ${e.msg}`);
      return;
    }
    throw e;
  }
  const opts = { ...optionsOf(chunk.text) } as FileOptions;
  const r = resolveFile(
    f,
    opts,
    (n) => n === 'M',
    (n) => n === 'U' || n === 'float',
  );
  for (const e of r.errors) res.gotError(e.pos.line, e.msg);
}

interface FileStats {
  file: string;
  pass: number;
  total: number;
  skipped: number;
  problems: string[];
}

function runFile(root: string, path: string, mode: 'exec' | 'parse' | 'resolve' | 'parse-whole'): FileStats {
  const rel = relative(root, path);
  const stats: FileStats = { file: rel, pass: 0, total: 0, skipped: 0, problems: [] };
  const skipReason = SKIP[rel];
  const chunks = mode === 'parse-whole' ? [{ source: readFileSync(path, 'utf8'), startLine: 1, want: new Map(), text: '' }] : readChunks(path);
  for (const chunk of chunks) {
    if (skipReason || SKIP[`${rel}:${chunk.startLine}`]) {
      stats.skipped++;
      continue;
    }
    stats.total++;
    const res = new ChunkResult(chunk, rel);
    current = res;
    try {
      if (mode === 'exec') runExecChunk(root, path, rel, chunk, res);
      else if (mode === 'resolve') runResolveChunk(path, rel, chunk, res);
      else runParseChunk(path, chunk, res);
    } catch (e) {
      res.problems.push(`${rel}:${chunk.startLine}: crash: ${(e as Error).stack}`);
    }
    current = null;
    res.done();
    if (res.problems.length === 0) stats.pass++;
    else stats.problems.push(...res.problems);
  }
  return stats;
}

function main(): void {
  const positionalArgs = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const root = resolve(positionalArgs[0] ?? '../shared/conformance/starlark-go');
  if (!existsSync(root)) {
    console.error(`conformance directory not found: ${root}`);
    process.exit(2);
  }
  const verbose = process.argv.includes('-v');
  const files: [string, 'exec' | 'parse' | 'resolve' | 'parse-whole'][] = [];
  const td = join(root, 'starlark/testdata');
  if (existsSync(td))
    for (const f of readdirSync(td)
      .filter((f) => f.endsWith('.star'))
      .sort())
      files.push([join(td, f), 'exec']);
  const st = join(root, 'starlarkstruct/testdata/struct.star');
  if (existsSync(st)) files.push([st, 'exec']);
  const errs = join(root, 'syntax/testdata/errors.star');
  if (existsSync(errs)) files.push([errs, 'parse']);
  const scan = join(root, 'syntax/testdata/scan.star');
  if (existsSync(scan)) files.push([scan, 'parse-whole']);
  const rs = join(root, 'resolve/testdata/resolve.star');
  if (existsSync(rs)) files.push([rs, 'resolve']);

  let pass = 0,
    total = 0,
    skipped = 0;
  const rows: string[] = [];
  for (const [path, mode] of files) {
    const s = runFile(root, path, mode);
    pass += s.pass;
    total += s.total;
    skipped += s.skipped;
    const pct = s.total === 0 ? '-' : ((100 * s.pass) / s.total).toFixed(1) + '%';
    rows.push(
      `${s.file.padEnd(40)} ${String(s.pass).padStart(4)}/${String(s.total).padEnd(4)} ${pct.padStart(7)}${s.skipped ? `  (${s.skipped} skipped: ${SKIP[s.file] ?? 'see skip list'})` : ''}`,
    );
    if (verbose || process.env.STARLARK_CONFORMANCE_VERBOSE) for (const p of s.problems) console.log('  ' + p.split('\n')[0]);
  }
  console.log(`${'file'.padEnd(40)} pass/total`);
  for (const r of rows) console.log(r);
  console.log(
    `${'TOTAL'.padEnd(40)} ${String(pass).padStart(4)}/${String(total).padEnd(4)} ${((100 * pass) / Math.max(total, 1)).toFixed(1).padStart(6)}%  (${skipped} chunks skipped)`,
  );
  process.exitCode = pass === total ? 0 : 1;
}

main();
