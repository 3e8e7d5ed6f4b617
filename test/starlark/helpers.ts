// Test helpers: run Starlark source and get values or errors back.

import { compileModule, callFunction, toJS, StarlarkError, type InitOptions, type Value } from '../../src/starlark/index.js';

/** Run src as a module; returns its globals converted to JS (functions omitted). */
export function run(src: string, opts: InitOptions & { predeclaredNames?: string[] } = {}): Record<string, unknown> {
  const { program, errors } = compileModule(src, 'test.star', { predeclared: opts.predeclaredNames ?? Object.keys(opts.predeclared ?? {}) });
  if (!program) throw new Error(errors.map((e) => `${e.line}:${e.col}: ${e.message}`).join('\n'));
  const mod = program.init(opts);
  const out: Record<string, unknown> = {};
  for (const [k, v] of mod.globals()) {
    try {
      out[k] = toJS(v);
    } catch {
      out[k] = `<${typeof v === 'object' && v !== null ? (v as { type: string }).type : typeof v}>`;
    }
  }
  return out;
}

/** Evaluate one expression (wrapped as `x = <expr>`) and return it as JS. */
export function ev(expr: string, opts: InitOptions = {}): unknown {
  return run(`x = ${expr}\n`, opts).x;
}

/** Evaluate `repr(expr)`. */
export function rp(expr: string): string {
  return ev(`repr(${expr})`) as string;
}

/** Run src expecting a Starlark error; returns it. */
export function fails(src: string, opts: InitOptions = {}): StarlarkError {
  try {
    run(src, opts);
  } catch (e) {
    if (e instanceof StarlarkError) return e;
    throw e;
  }
  throw new Error(`expected an error from:\n${src}`);
}

/** Compile src expecting compile errors; returns them. */
export function compileErrors(src: string, predeclared: string[] = []): { line: number; col: number; message: string }[] {
  const { program, errors } = compileModule(src, 'test.star', { predeclared });
  if (program) throw new Error('expected compile errors');
  return errors;
}

export function call(src: string, fn: string, args: Value[], opts = {}): Value {
  const { program, errors } = compileModule(src, 'test.star');
  if (!program) throw new Error(errors.map((e) => e.message).join('\n'));
  return callFunction(program.init(), fn, args, opts);
}
