// `svc starlark FILE [--ctx JSON]`: run a Starlark file as a module (print
// goes to stdout); with --ctx, then call execute(ctx) with ctx made from the
// JSON the way the server makes it (ctx.request.body, ctx.steps.<name>...) and
// print the result as JSON. Errors (including fail()) go to stderr with the
// Starlark backtrace; the exit code is then 1.

import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { stringifyExact } from '../json/index.js';
import {
  compileModule,
  callFunction,
  Dict,
  StarlarkError,
  toJS,
  decodeJSON,
  encodeUTF8,
  headersFromJS,
  recordStruct,
  stringKeyedEntries,
  type Value,
} from '../starlark/index.js';
import { flagString, parseArgs, UsageError, type ParsedArgs } from './args.js';
import type { CliIO } from './io.js';

const USAGE = 'usage: svc starlark FILE [--ctx JSON] [--max-steps N] [--timeout-ms N]';

const FLAGS = [
  { name: 'ctx', value: true },
  { name: 'max-steps', value: true },
  { name: 'timeout-ms', value: true },
  { name: 'help', short: 'h', value: false },
] as const;

export async function starlarkCommand(args: string[], io: CliIO): Promise<number> {
  let parsed: ParsedArgs;
  let maxSteps: number | undefined;
  let timeoutMs: number | undefined;
  try {
    parsed = parseArgs(args, FLAGS);
    maxSteps = positiveInt(parsed, 'max-steps');
    timeoutMs = positiveInt(parsed, 'timeout-ms');
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`svc starlark: ${e.message}\n${USAGE}\n`);
    return 2;
  }
  if (parsed.flags.help) {
    io.stdout.write(USAGE + '\n');
    return 0;
  }
  const [file, extra] = parsed.positionals;
  if (extra !== undefined) {
    io.stderr.write(`svc starlark: unexpected argument ${extra}\n${USAGE}\n`);
    return 2;
  }
  if (file === undefined) {
    io.stderr.write(USAGE + '\n');
    return 2;
  }
  const ctxText = flagString(parsed, 'ctx');

  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch (e) {
    io.stderr.write(`svc starlark: cannot read ${file}: ${(e as Error).message}\n`);
    return 1;
  }
  // --ctx is decoded by Starlark's own JSON decoder: objects keep their key
  // order and integers of any size stay exact (JSON.parse would round them).
  let ctx: Value = null;
  if (ctxText !== undefined) {
    try {
      ctx = decodeJSON(encodeUTF8(ctxText));
    } catch (e) {
      io.stderr.write(`svc starlark: --ctx is not valid JSON: ${e instanceof Error ? ((e as { msg?: string }).msg ?? e.message) : String(e)}\n`);
      return 2;
    }
  }

  const { program, errors } = compileModule(source, file);
  if (!program) {
    for (const d of errors) io.stderr.write(`${d.file}:${d.line}:${d.col}: ${d.message}\n`);
    return 1;
  }
  const run = {
    print: (s: string) => io.stdout.write(s + '\n'),
    ...(maxSteps !== undefined ? { maxSteps } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
  try {
    const mod = program.init(run);
    if (ctxText !== undefined) {
      const result = callFunction(mod, 'execute', [contextOf(ctx)], run);
      // Ints beyond 2^53 are written as exact JSON numbers.
      io.stdout.write(stringifyExact(toJS(result), 2) + '\n');
    }
    return 0;
  } catch (e) {
    if (e instanceof StarlarkError) {
      io.stderr.write(e.backtrace() + '\n');
      return 1;
    }
    throw e;
  }
}

/** A flag's value as a whole number above 0, or undefined when the flag is absent. */
function positiveInt(args: ParsedArgs, name: string): number | undefined {
  const text = flagString(args, name);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text)))
    throw new UsageError(`--${name} must be a whole number above 0, not "${text}"`);
  return Number(text);
}

/**
 * The `ctx` a step's script gets, from --ctx: a JSON object becomes the struct-like ctx of the server
 * (`ctx.request.body`, `ctx["steps"]["lookup"]`), `request` and `steps` struct-like too, the request's
 * headers a case-insensitive dict. Members it leaves out are those of an empty GET request: path,
 * query and headers `{}`, body None, no steps, auth None, the current time and a fresh request id.
 * Other members are kept as given; a ctx that is not an object is passed as it is.
 */
function contextOf(ctx: Value): Value {
  const given = stringKeyedEntries(ctx);
  if (given === null) return ctx;
  const request = given.get('request') ?? new Dict();
  const requestEntries = stringKeyedEntries(request);
  const steps = given.get('steps') ?? new Dict();
  const stepEntries = stringKeyedEntries(steps);
  const members = new Map<string, Value>([
    ['request', requestEntries === null ? request : requestStruct(requestEntries)],
    ['steps', stepEntries === null ? steps : recordStruct(stepEntries)],
    ['timestamp_epoch', Math.floor(Date.now() / 1000)],
    ['request_id', encodeUTF8(randomUUID())],
    ['auth', null],
  ]);
  for (const [name, value] of given) if (name !== 'request' && name !== 'steps') members.set(name, value);
  return recordStruct(members);
}

function requestStruct(given: Map<string, Value>): Value {
  const members = new Map<string, Value>([
    ['method', 'GET'],
    ['path', new Dict()],
    ['query', new Dict()],
    ['headers', headersFromJS({})],
    ['body', null],
  ]);
  for (const [name, value] of given) members.set(name, name === 'headers' ? headersOf(value) : value);
  return recordStruct(members);
}

/** A JSON object of strings (or lists of strings) as the case-insensitive headers dict; anything else as given. */
function headersOf(value: Value): Value {
  const entries = stringKeyedEntries(value);
  if (entries === null) return value;
  const headers: Record<string, string | string[]> = {};
  for (const [name, v] of entries) {
    const js = toJS(v);
    if (typeof js !== 'string' && !(Array.isArray(js) && js.every((x) => typeof x === 'string'))) return value;
    headers[name] = js;
  }
  return headersFromJS(headers);
}
