// Robustness fuzzer (not a benchmark): mutates starlark-go test chunks and checks that
// compiling and running them only ever fails with StarlarkError (never a JS crash).
//   node --import tsx bench/starlark/fuzz.ts
import { readFileSync, readdirSync } from 'node:fs';
import { compileModule, StarlarkError, Builtin, Module, type Value } from '../../src/starlark/index.js';
import { callValue } from '../../src/starlark/runtime.js';
import { EvalErr } from '../../src/starlark/values/types.js';
const nop = (name: string) => new Builtin(name, () => null);
const assertMod = new Module(
  'assert',
  new Map<string, Value>([
    ['eq', nop('eq')],
    ['ne', nop('ne')],
    ['true', nop('true')],
    ['lt', nop('lt')],
    ['contains', nop('contains')],
    [
      'fails',
      new Builtin('fails', (args, _kwargs, _self, th) => {
        try {
          callValue(th, args[0]!, [], null);
        } catch (e) {
          if (!(e instanceof EvalErr)) throw e;
        }
        return null;
      }),
    ],
  ]),
);
const freeze = new Builtin('freeze', (args) => args[0]!);
const dir = '../shared/conformance/starlark-go/starlark/testdata/';
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.star'))
  .flatMap((f) => readFileSync(dir + f, 'utf8').split('\n---\n'));
let seed = 12345;
const rnd = (n: number) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const toks = [
  '(',
  ')',
  '[',
  ']',
  ':',
  ',',
  '\n',
  '  ',
  'x',
  '1',
  '"',
  "'",
  'def ',
  'lambda ',
  '*',
  '**',
  '=',
  'for ',
  ' in ',
  'if ',
  'else',
  '.',
  '\\',
  '#',
  'None',
  '{',
  '}',
  '%',
  '-',
  '0x',
  '1e',
  'return ',
  'load("a", "b")',
];
let crashes = 0,
  runs = 0,
  compiled = 0;
const t0 = Date.now();
while (Date.now() - t0 < 30_000) {
  let src = files[rnd(files.length)]!;
  for (let k = 0; k < rnd(3); k++) {
    const p = rnd(src.length + 1);
    if (rnd(2)) src = src.slice(0, p) + toks[rnd(toks.length)] + src.slice(p);
    else src = src.slice(0, p) + src.slice(p + 1 + rnd(5));
  }
  runs++;
  try {
    const { program } = compileModule(src, 'fuzz.star', {
      predeclared: ['assert', 'hasfields', 'fibonacci', 'struct'],
      fileOptions: { topLevelControl: true, globalReassign: true },
    });
    if (program) compiled++;
    if (program)
      program.init({
        maxSteps: 20000,
        timeoutMs: 200,
        predeclared: {},
        load: () =>
          new Map<string, Value>([
            ['assert', assertMod],
            ['freeze', freeze],
          ]),
      });
  } catch (e) {
    if (e instanceof StarlarkError) continue;
    crashes++;
    if (crashes <= 8) console.log('CRASH', (e as Error).stack?.split('\n').slice(0, 4).join(' | '), '\n---\n' + src.slice(0, 300) + '\n---');
  }
}
console.log('runs', runs, 'compiled', compiled, 'crashes', crashes);
