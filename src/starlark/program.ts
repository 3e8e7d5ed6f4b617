// Programs and modules: parse + resolve + compile once (compileModule), then
// run the module's top level (Program.init) and call its functions
// (callFunction) as many times as needed, each run on a fresh Thread with its
// own budget. A Program is immutable; a module's globals are frozen after init.

import { parseFile } from './syntax/parser.js';
import { placeIn, SyntaxError_, type LinePlace } from './syntax/scanner.js';
import { resolveFile, type FileOptions } from './resolve.js';
import { Compiler } from './compile.js';
import { decodeUTF8, displayText } from './values/utf8.js';
import { makeUniverse } from './builtins/universe.js';
import { makeJSONModule } from './json.js';
import { makeMathModule } from './math.js';
import { callValue, fromRangeError } from './runtime.js';
import { Thread, type RunOptions } from './thread.js';
import { parameterReads, type Reads } from './reads.js';
import type { Stmt } from './syntax/ast.js';
import { freezeValue, EvalErr, Frame, Func, type ModuleEnv, type RuntimePos, type Value } from './values/types.js';
import './methods/str.js';
import './methods/collections.js';

/** A compile-time problem (syntax or resolve error). */
export interface StarlarkDiagnostic {
  file: string;
  line: number;
  col: number;
  message: string;
}

/** Options for compileModule. */
export interface CompileOptions {
  /** names the host will supply at init (besides the universe, json and math) */
  predeclared?: Iterable<string>;
  /** dialect switches; defaults: set, while, recursion on; top-level control and global reassignment off */
  fileOptions?: Partial<FileOptions>;
  /**
   * For a program embedded in the file `filename` names (a script in a heredoc of a configuration
   * file): where each of its lines lies there (index 0: line 1). Every position reported (compile
   * errors, backtraces, positions quoted in messages) is then the file's line and column.
   */
  place?: readonly LinePlace[];
}

export const DEFAULT_FILE_OPTIONS: FileOptions = {
  set: true,
  while: true,
  recursion: true,
  topLevelControl: false,
  globalReassign: false,
  loadBindsGlobally: false,
};

export interface InitOptions extends RunOptions {
  /** values of the predeclared names declared at compile time */
  predeclared?: Record<string, Value> | Map<string, Value>;
}

/** A Starlark error surfaced to the host: message, kind, position and call stack. */
export class StarlarkError extends Error {
  constructor(
    /** 'compile' | 'eval' | 'fail' | 'steps' | 'timeout' | 'size' | 'stack' | 'cancelled' | 'convert' */
    public readonly kind: string,
    public readonly msg: string,
    /** outermost first, like starlark-go's CallStack; pos is null for built-ins */
    public readonly callStack: { name: string; pos: RuntimePos | null }[] = [],
    public readonly diagnostics: StarlarkDiagnostic[] = [],
  ) {
    super(msg);
    this.name = 'StarlarkError';
  }

  /** Innermost position in Starlark code, if any. */
  get pos(): RuntimePos | null {
    for (let i = this.callStack.length - 1; i >= 0; i--) if (this.callStack[i]!.pos) return this.callStack[i]!.pos;
    return null;
  }

  /** starlark-go style: "Traceback (most recent call last):\n  f.star:1:2: in <toplevel>\nError: msg" */
  backtrace(): string {
    if (this.kind === 'compile') {
      return this.diagnostics.map((d) => `${d.file}:${d.line}:${d.col}: ${d.message}`).join('\n');
    }
    let stack = this.callStack;
    let suffix = '';
    const last = stack[stack.length - 1];
    if (last && last.pos === null) {
      suffix = ' in ' + last.name;
      stack = stack.slice(0, -1);
    }
    let out = '';
    if (stack.length > 0) {
      out += 'Traceback (most recent call last):\n';
      for (const fr of stack) out += `  ${fr.pos ? `${fr.pos.file}:${fr.pos.line}:${fr.pos.col}` : '<builtin>'}: in ${fr.name}\n`;
    }
    return `${out}Error${suffix}: ${this.msg}`;
  }
}

function toStarlarkError(e: unknown): StarlarkError {
  if (e instanceof StarlarkError) return e;
  if (e instanceof EvalErr) {
    const frames = e.frames.slice();
    if (e.pos !== null) frames.push({ name: '<unknown>', pos: e.pos });
    return new StarlarkError(e.kind, displayText(e.msg), frames.reverse());
  }
  const conv = fromRangeError(e);
  if (conv !== null) return new StarlarkError(conv.kind, conv.msg);
  throw e;
}

/**
 * Run f on a fresh thread (budget, clock, limits, print, load). Nothing is
 * saved or restored: a host function that starts another run from inside a
 * built-in gets its own thread and leaves the caller's untouched.
 */
function onThread<T>(opts: RunOptions, recursion: boolean, f: (th: Thread) => T): T {
  const th = new Thread(opts, recursion);
  try {
    return f(th);
  } catch (e) {
    throw toStarlarkError(e);
  }
}

/** The globals of an initialised module (frozen after init). */
export class StarlarkModule {
  private readonly index: Map<string, number>;
  constructor(
    public readonly program: Program,
    public readonly env: ModuleEnv,
  ) {
    this.index = new Map(env.globalNames.map((n, i) => [n, i]));
  }

  get(name: string): Value | undefined {
    const i = this.index.get(name);
    return i === undefined ? undefined : this.env.globals[i];
  }

  /**
   * Describe a global function, for boot-time checks by the host (e.g. that
   * `execute` exists and takes one argument); null if `name` is not a def/lambda.
   */
  functionInfo(name: string): { name: string; params: string[]; required: number; keywordOnly: number; varargs: boolean; kwargs: boolean } | null {
    const f = this.get(name);
    if (!(f instanceof Func)) return null;
    const c = f.code;
    // defaults cover the optional positional parameters and all keyword-only ones
    const named = c.nparams - (c.hasVarargs ? 1 : 0) - (c.hasKwargs ? 1 : 0);
    return {
      name: c.name,
      params: c.paramNames.slice(0, c.nparams),
      required: named - f.defaults.length, // positional parameters without a default
      keywordOnly: c.numKwonly,
      varargs: c.hasVarargs,
      kwargs: c.hasKwargs,
    };
  }

  /** Defined globals, in order of definition. */
  globals(): Map<string, Value> {
    const m = new Map<string, Value>();
    this.env.globalNames.forEach((n, i) => {
      const v = this.env.globals[i];
      if (v !== undefined) m.set(n, v);
    });
    return m;
  }
}

/** A compiled, immutable Starlark file. */
export class Program {
  constructor(
    public readonly filename: string,
    private readonly globalNames: string[],
    private readonly predeclaredNames: string[],
    private readonly nlocals: number,
    private readonly cellLocals: number[],
    private readonly toplevel: (fr: Frame) => number,
    readonly recursion: boolean,
    private readonly builtinModules: Map<string, Value>,
    private readonly stmts: readonly Stmt[],
  ) {}

  /**
   * What the top-level function `name` can read of its parameter `index` (reads.ts): 'all', or the
   * members it reads by constant name, `p.a.b` / `p["a"]["b"]`, with what it reads of each. A host
   * passing a large value sends only those parts.
   */
  parameterReads(name: string, index = 0): Reads {
    return parameterReads(this.stmts, name, index);
  }

  /** The modules its `load` statements name (top level only, as the language has them), in order. */
  loads(): { module: string; line: number; col: number }[] {
    const out: { module: string; line: number; col: number }[] = [];
    for (const s of this.stmts) {
      if (s.kind === 'Load') out.push({ module: decodeUTF8(s.module.value as string), line: s.pos.line, col: s.pos.col });
    }
    return out;
  }

  /** Execute the top level; returns the module with its globals frozen. */
  init(opts: InitOptions = {}): StarlarkModule {
    const ng = this.globalNames.length;
    const globals: (Value | undefined)[] = new Array(ng + this.predeclaredNames.length);
    const pre = opts.predeclared instanceof Map ? opts.predeclared : new Map(Object.entries(opts.predeclared ?? {}));
    this.predeclaredNames.forEach((n, i) => {
      globals[ng + i] = pre.has(n) ? pre.get(n)! : this.builtinModules.get(n);
    });
    const env: ModuleEnv = { globals, globalNames: this.globalNames, predeclared: pre };
    onThread(opts, this.recursion, (th) => {
      const l = new Array(this.nlocals);
      for (const i of this.cellLocals) l[i] = { v: undefined };
      const fr = new Frame(l, env, [], null, th);
      try {
        this.toplevel(fr);
      } catch (e) {
        if (e instanceof EvalErr) {
          e.frames.push({ name: '<toplevel>', pos: e.pos });
          e.pos = null;
        } else {
          const err = fromRangeError(e);
          if (err !== null) {
            err.frames.push({ name: '<toplevel>', pos: null });
            throw err;
          }
        }
        throw e;
      }
      for (let i = 0; i < ng; i++) freezeValue(globals[i] ?? null);
    });
    return new StarlarkModule(this, env);
  }
}

/** Parse, resolve and compile a file. On errors, program is null and errors lists every diagnostic. */
export function compileModule(source: string, filename: string, options: CompileOptions = {}): { program: Program | null; errors: StarlarkDiagnostic[] } {
  const fopts: FileOptions = { ...DEFAULT_FILE_OPTIONS, ...options.fileOptions };
  let file: ReturnType<typeof parseFile>;
  try {
    file = parseFile(filename, source, options.place);
  } catch (e) {
    if (e instanceof SyntaxError_) return { program: null, errors: [{ file: filename, line: e.pos.line, col: e.pos.col, message: e.msg }] };
    return { program: null, errors: [stackOverflowDiagnostic(e, filename, options.place)] };
  }
  try {
    return compileParsed(file, filename, fopts, options);
  } catch (e) {
    return { program: null, errors: [stackOverflowDiagnostic(e, filename, options.place)] };
  }
}

/**
 * The parser's nesting limits (syntax/parser.ts) keep every phase within the JS
 * stack; should a phase still overflow (a host calling compileModule from deep
 * inside its own recursion), the program is refused with a diagnostic rather
 * than a RangeError.
 */
function stackOverflowDiagnostic(e: unknown, filename: string, place: readonly LinePlace[] | undefined): StarlarkDiagnostic {
  if (!(e instanceof RangeError)) throw e;
  const { line, col } = place === undefined ? { line: 1, col: 1 } : placeIn(place, 1, 1);
  return { file: filename, line, col, message: 'program too deeply nested to compile (the stack ran out)' };
}

function compileParsed(
  file: ReturnType<typeof parseFile>,
  filename: string,
  fopts: FileOptions,
  options: CompileOptions,
): { program: Program | null; errors: StarlarkDiagnostic[] } {
  const universe = makeUniverse();
  const builtinModules = new Map<string, Value>([
    ['json', makeJSONModule()],
    ['math', makeMathModule()],
  ]);
  const predeclared = new Set<string>([...builtinModules.keys(), ...(options.predeclared ?? [])]);
  const r = resolveFile(
    file,
    fopts,
    (n) => predeclared.has(n),
    (n) => universe.has(n),
    [...predeclared, ...universe.keys()],
  );
  if (r.errors.length > 0) {
    return { program: null, errors: r.errors.map((e) => ({ file: filename, line: e.pos.line, col: e.pos.col, message: e.msg })) };
  }
  const globalNames = r.globals.map((b) => b.first.name);
  const predeclaredNames: string[] = [];
  const compiler = new Compiler({
    file: filename,
    universe,
    predeclaredSlot: (name) => {
      let i = predeclaredNames.indexOf(name);
      if (i < 0) {
        i = predeclaredNames.length;
        predeclaredNames.push(name);
      }
      return globalNames.length + i;
    },
  });
  const body = compiler.block(file.stmts);
  const cellLocals = r.locals.filter((b) => b.scope === 'cell').map((b) => b.index);
  const program = new Program(filename, globalNames, predeclaredNames, r.locals.length, cellLocals, body, fopts.recursion, builtinModules, file.stmts);
  return { program, errors: [] };
}

/** Call a global function of an initialised module with Starlark values. */
export function callFunction(module: StarlarkModule, name: string, args: Value[], opts: RunOptions & { kwargs?: [string, Value][] } = {}): Value {
  const fn = module.get(name);
  if (fn === undefined) throw new StarlarkError('eval', `module ${module.program.filename} has no global ${name}`);
  return onThread(opts, module.program.recursion, (th) => {
    try {
      return callValue(th, fn, args, opts.kwargs ?? null);
    } catch (e) {
      if (e instanceof EvalErr && e.pos !== null) {
        e.frames.push({ name: '<host>', pos: e.pos });
        e.pos = null;
      }
      throw e;
    }
  });
}

/** Raise a host-side compile error for a failed compileModule result. */
export function compileError(errors: StarlarkDiagnostic[]): StarlarkError {
  const d = errors[0]!;
  return new StarlarkError('compile', d.message, [], errors);
}
