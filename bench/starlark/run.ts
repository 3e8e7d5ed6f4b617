// Benchmark: our Starlark interpreter vs CPython on the same scripts, in the
// same run. Each script defines run(); one "op" is one call of run(). The
// program is compiled and initialised once, then called repeatedly (as the
// server does per request). Prints ops/s for both and the ratio of time per op
// (ours / CPython): < 1 means we are faster. Not a pass/fail test.
//
//   npm run bench:starlark            (needs python3 on PATH for the baseline)

import { execFileSync } from 'node:child_process';
import { compileModule, callFunction, fromJS, toJS, type Value } from '../../src/starlark/index.js';
import { contextValue } from '../../src/steps/starlark/context.js';
import type { CallContext } from '../../src/steps/starlark/protocol.js';

interface Script {
  name: string;
  src: string;
  arg?: unknown;
  minMs: number;
  /**
   * The argument is converted from JS per call and the result back, as the svc step does in its
   * worker: ctx made by contextValue (struct-like, each part converted when the script reads it).
   */
  convert?: boolean;
}

/** The transform endpoint's script (SPEC.md §4.4) and a request body with 20 tags, measured twice. */
const TRANSFORM = {
  arg: {
    request: {
      body: {
        prefix: 'tag',
        tags: [
          '  Alpha',
          'BETA ',
          '',
          'gamma',
          ' Delta ',
          'epsilon',
          'ZETA',
          '  ',
          'eta',
          'Theta',
          'iota',
          'Kappa',
          ' lambda',
          'MU',
          'nu',
          'xi ',
          'Omicron',
          'pi',
          'RHO',
          'sigma',
        ],
      },
    },
  },
  src: `
def execute(ctx):
  body = ctx["request"]["body"]
  prefix = body.get("prefix", "item")
  out = []
  for t in body.get("tags", []):
      t = t.strip().lower()
      if t:
          out.append(prefix + ":" + t)
  return {"count": len(out), "tags": out}

def run(arg):
  return execute(arg)
`,
};

const SCRIPTS: Script[] = [
  {
    name: 'loop (int arithmetic, 200k iterations)',
    minMs: 700,
    src: `
def run(arg):
    total = 0
    for i in range(200000):
        if i % 3 == 0:
            total += i * 2
        else:
            total -= 1
    j = 0
    while j < 50000:
        j += 1
    return total + j
`,
  },
  {
    name: 'strings (format, split, join, replace)',
    minMs: 700,
    src: `
def run(arg):
    parts = []
    for i in range(5000):
        s = "item-%d" % i
        parts.append(s.upper().replace("ITEM", "x") + ":" + str(i * 7))
    joined = ",".join(parts)
    n = 0
    for p in joined.split(","):
        if p.startswith("x-1"):
            n += len(p)
    return n
`,
  },
  {
    name: 'dicts and lists (counting, sort, comprehension)',
    minMs: 700,
    src: `
def run(arg):
    d = {}
    for i in range(20000):
        k = "k" + str(i % 500)
        d[k] = d.get(k, 0) + i
    values = sorted(d.values())
    evens = [v for v in values if v % 2 == 0]
    pairs = {k: v for k, v in d.items() if v > 100}
    return len(evens) + len(pairs) + len(list(reversed(values)))
`,
  },
  {
    name: 'transform script (SPEC §4.4), 20 tags',
    minMs: 700,
    ...TRANSFORM,
  },
  {
    name: 'transform + JS<->Starlark conversion',
    convert: true,
    minMs: 700,
    ...TRANSFORM,
  },
  {
    // an earlier step's 200 rows are in ctx, unread: converted only if read (svc does not even send them)
    name: 'transform + conversion, 200 unread rows in ctx',
    convert: true,
    minMs: 700,
    ...TRANSFORM,
    arg: {
      ...TRANSFORM.arg,
      steps: { find_rows: { rows: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ['a', 'b'], score: i * 1.5 })) } },
    },
  },
];

function benchOurs(s: Script): { opsPerSec: number; msPerOp: number; result: unknown } {
  const { program, errors } = compileModule(s.src, `${s.name}.star`);
  if (!program) throw new Error(errors.map((e) => e.message).join('\n'));
  const mod = program.init();
  // With `convert`, the argument is converted from JS and the result back per
  // call, as the server does per request (the CPython baseline has no such step).
  const opts = { maxSteps: 1e12, timeoutMs: 60_000 };
  let result: unknown;
  const pre = fromJS(s.arg ?? null);
  const call = s.convert
    ? () => {
        result = toJS(callFunction(mod, 'run', [contextValue(s.arg as CallContext)], opts));
      }
    : () => {
        last = callFunction(mod, 'run', [pre], opts);
      };
  let last: Value = null;
  const warmEnd = performance.now() + 300;
  while (performance.now() < warmEnd) call();
  let n = 0;
  const t0 = performance.now();
  let t1 = t0;
  while (t1 - t0 < s.minMs) {
    call();
    n++;
    t1 = performance.now();
  }
  const ms = (t1 - t0) / n;
  if (!s.convert) result = toJS(last);
  return { opsPerSec: 1000 / ms, msPerOp: ms, result };
}

function benchPython(s: Script): { opsPerSec: number; msPerOp: number; result: unknown } | null {
  const py = `
import json, sys, time
src = sys.stdin.read()
g = {}
exec(src, g)
arg = json.loads(${JSON.stringify(JSON.stringify(s.arg ?? null))})
run = g["run"]
end = time.perf_counter() + 0.3
while time.perf_counter() < end: run(arg)
n = 0
t0 = time.perf_counter(); t1 = t0
while t1 - t0 < ${s.minMs / 1000}:
    r = run(arg); n += 1; t1 = time.perf_counter()
print(json.dumps({"ms": (t1 - t0) * 1000 / n, "result": r}))
`;
  try {
    const out = execFileSync('python3', ['-c', py], { input: s.src, encoding: 'utf8', timeout: 120_000 });
    const { ms, result } = JSON.parse(out) as { ms: number; result: unknown };
    return { opsPerSec: 1000 / ms, msPerOp: ms, result };
  } catch (e) {
    console.error(`python3 baseline failed for ${s.name}: ${(e as Error).message}`);
    return null;
  }
}

function main(): void {
  let pyVersion = 'python3 not found';
  try {
    pyVersion = execFileSync('python3', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    /* no baseline */
  }
  console.log(`Starlark (svc, Node ${process.version}) vs ${pyVersion}; ratio = time per op, ours / CPython (goal <= 2.0)\n`);
  console.log(`${'script'.padEnd(48)} ${'ours ops/s'.padStart(12)} ${'cpython ops/s'.padStart(14)} ${'ratio'.padStart(7)}`);
  // The machine may be shared: alternate rounds and keep each side's best.
  const ROUNDS = Number(process.env.STARLARK_BENCH_ROUNDS ?? 3);
  const only = process.env.STARLARK_BENCH_ONLY; // substring of a script name
  for (const s of SCRIPTS.filter((x) => !only || x.name.includes(only))) {
    let ours = benchOurs(s);
    let py = benchPython(s);
    for (let r = 1; r < ROUNDS; r++) {
      const o = benchOurs(s);
      if (o.msPerOp < ours.msPerOp) ours = o;
      const q = benchPython(s);
      if (q && (!py || q.msPerOp < py.msPerOp)) py = q;
    }
    const same = py ? JSON.stringify(py.result) === JSON.stringify(ours.result) : true;
    const ratio = py ? (ours.msPerOp / py.msPerOp).toFixed(2) : '-';
    console.log(
      `${s.name.padEnd(48)} ${ours.opsPerSec.toFixed(1).padStart(12)} ${py ? py.opsPerSec.toFixed(1).padStart(14) : '-'.padStart(14)} ${ratio.padStart(7)}${same ? '' : '  (RESULTS DIFFER!)'}`,
    );
  }
}

main();
