// `svc starlark FILE [--ctx JSON]`: run a Starlark file as a module (print
// goes to stdout); with --ctx, then call execute(ctx) with ctx converted from
// the JSON and print the result as JSON. Errors (including fail()) go to
// stderr with the Starlark backtrace; the exit code is then 1.

import { readFile } from 'node:fs/promises';
import { stringifyExact } from '../json/stringify.js';
import { compileModule, callFunction, StarlarkError, toJS, decodeJSON, encodeUTF8, type Value } from '../starlark/index.js';

export interface CommandIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

const USAGE = 'usage: svc starlark FILE [--ctx JSON] [--max-steps N] [--timeout-ms N]';

/** JSON text of a converted value; ints beyond 2^53 are written as exact JSON numbers. */
export function stringifyResult(v: unknown): string {
  return stringifyExact(v, 2);
}

export async function starlarkCommand(args: string[], io: CommandIO): Promise<number> {
  let file: string | undefined;
  let ctxText: string | undefined;
  let maxSteps: number | undefined;
  let timeoutMs: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--ctx') ctxText = args[++i];
    else if (a.startsWith('--ctx=')) ctxText = a.slice(6);
    else if (a === '--max-steps') maxSteps = Number(args[++i]);
    else if (a === '--timeout-ms') timeoutMs = Number(args[++i]);
    else if (a === '-h' || a === '--help') { io.stdout(USAGE + '\n'); return 0; }
    else if (file === undefined && !a.startsWith('--')) file = a;
    else { io.stderr(`svc starlark: unexpected argument ${a}\n${USAGE}\n`); return 2; }
  }
  if (file === undefined) { io.stderr(USAGE + '\n'); return 2; }
  if (args.includes('--ctx') && ctxText === undefined) { io.stderr(`svc starlark: --ctx needs a JSON argument\n${USAGE}\n`); return 2; }

  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch (e) {
    io.stderr(`svc starlark: cannot read ${file}: ${(e as Error).message}\n`);
    return 1;
  }
  // --ctx is decoded by Starlark's own JSON decoder: objects keep their key
  // order and integers of any size stay exact (JSON.parse would round them).
  let ctx: Value = null;
  if (ctxText !== undefined) {
    try {
      ctx = decodeJSON(encodeUTF8(ctxText));
    } catch (e) {
      io.stderr(`svc starlark: --ctx is not valid JSON: ${e instanceof Error ? (e as { msg?: string }).msg ?? e.message : String(e)}\n`);
      return 2;
    }
  }

  const { program, errors } = compileModule(source, file);
  if (!program) {
    for (const d of errors) io.stderr(`${d.file}:${d.line}:${d.col}: ${d.message}\n`);
    return 1;
  }
  const run = { print: (s: string) => io.stdout(s + '\n'), ...(maxSteps ? { maxSteps } : {}), ...(timeoutMs ? { timeoutMs } : {}) };
  try {
    const mod = program.init(run);
    if (ctxText !== undefined) {
      const result = callFunction(mod, 'execute', [ctx], run);
      io.stdout(stringifyResult(toJS(result)) + '\n');
    }
    return 0;
  } catch (e) {
    if (e instanceof StarlarkError) {
      io.stderr(e.backtrace() + '\n');
      return 1;
    }
    throw e;
  }
}

// Stand-alone use: node --import tsx src/cli/starlark.ts FILE [--ctx JSON]
if (import.meta.url === `file://${process.argv[1]}`) {
  starlarkCommand(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
  }).then((code) => { process.exitCode = code; });
}
