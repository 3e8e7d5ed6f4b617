/**
 * A bad manifest is a list of diagnostics, never an exception: the reference fixtures cut short,
 * with lines dropped or duplicated, and with tokens swapped, and hand-made hostile manifests (deep
 * nesting, huge labels, odd characters, everything duplicated, schemas that contain themselves), all
 * decode without throwing; every diagnostic has a location; and whenever a model is built, the
 * request validators compile (no SchemaError is left for `serve` to throw).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildResult } from '../../src/model/index.js';
import { buildServiceModel } from '../../src/steps/index.js';
import { compileRequestValidator } from '../../src/schema/index.js';
import { sourceDir } from '../paths.js';

const dir = join(sourceDir(import.meta.url), 'fixtures', 'good');
const sources = readdirSync(dir)
  .filter((f) => f.endsWith('.hcl'))
  .sort()
  .map((f) => readFileSync(join(dir, f), 'utf8'));

/** A small deterministic PRNG (mulberry32), so a failure is reproducible from its seed. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SWAPS = ['{', '}', '=', '"', '[', ']', '(', ')', ',', '.', 'respond', 'sql "x"', '${', '<<EOT', 'null', '-1', '"GET /"', 'schema.', 'steps.', 'ctx.'];

function mutate(text: string, random: () => number): string {
  const lines = text.split('\n');
  const ops = 1 + Math.floor(random() * 4);
  for (let k = 0; k < ops; k++) {
    const i = Math.floor(random() * lines.length);
    const r = random();
    if (r < 0.25) lines.splice(i, 1);
    else if (r < 0.5) lines.splice(i, 0, lines[Math.floor(random() * lines.length)]!);
    else if (r < 0.75) {
      const line = lines[i]!;
      const at = Math.floor(random() * (line.length + 1));
      lines[i] = line.slice(0, at) + SWAPS[Math.floor(random() * SWAPS.length)]! + line.slice(at + 1);
    } else return lines.slice(0, i).join('\n');
  }
  return lines.join('\n');
}

test('mutated manifests produce diagnostics, never exceptions', () => {
  let withErrors = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const random = rng(seed);
    const files = sources.map((s, i) => ({ filename: `f${i}.hcl`, source: random() < 0.7 ? mutate(s, random) : s }));
    let result: ReturnType<typeof buildServiceModel> | undefined;
    try {
      result = buildServiceModel(files);
    } catch (e) {
      assert.fail(`seed ${seed}: ${(e as Error).stack}`);
    }
    assertServable(result, `seed ${seed}`);
    if (!result.model) {
      withErrors++;
      for (const d of result.diagnostics) assert.equal(typeof d.summary, 'string');
    }
  }
  assert.ok(withErrors > 100, `most mutations are errors (${withErrors})`);
});

/** What `svc serve` does next with a model must not throw either. */
function assertServable(result: BuildResult, what: string): void {
  for (const e of result.model?.endpoints ?? []) {
    try {
      compileRequestValidator(e.request);
    } catch (err) {
      assert.fail(`${what}: ${e.id}: the validator does not compile: ${(err as Error).message}`);
    }
  }
}

const NASTY: Record<string, string> = {
  deepBlocks: 'endpoint "GET /a" {\n' + 'pipeline {\n'.repeat(3000) + '}\n'.repeat(3001),
  deepExpr: 'endpoint "GET /a" {\n pipeline {\n respond {\n body = ' + '['.repeat(5000) + ']'.repeat(5000) + '\n}\n}\n}\n',
  deepParen: 'endpoint "GET /a" {\n pipeline {\n respond {\n body = ' + '('.repeat(5000) + '1' + ')'.repeat(5000) + '\n}\n}\n}\n',
  deepObj: 'endpoint "GET /a" {\n pipeline {\n respond {\n body = ' + '{a='.repeat(3000) + '1' + '}'.repeat(3000) + '\n}\n}\n}\n',
  deepType: 'schema "s" {\n field "a" {\n type = ' + 'list('.repeat(3000) + 'string' + ')'.repeat(3000) + '\n}\n}\n',
  deepTemplate: 'endpoint "GET /a" {\n pipeline {\n respond {\n body = "' + '${"'.repeat(2000) + 'x' + '"}'.repeat(2000) + '"\n}\n}\n}\n',
  hugeLabel: `endpoint "GET /${'a'.repeat(200000)}" {\n pipeline {\n respond {\n body = 1\n}\n}\n}\nschema "${'s'.repeat(100000)}" {\n field "${'f'.repeat(100000)}" {\n type = string\n}\n}\n`,
  weirdText: '\uFEFFendpoint "GET /\u0000\uD800\uFFFD" {\n pipeline {\n respond {\n body = "\uD800\u0007"\n}\n}\n}\n\u2028\u0085',
  bomOnly: '\uFEFF',
  nul: 'endpoint "GET /a" {\u0000}\n',
  dupAll: (
    'server {\nport = 1\nport = 2\n}\nopenapi {\ntitle="a"\n}\nschema "s" {\nfield "a" {\ntype = string\ntype = int\n}\nfield "a" {\ntype=string\n}\n}\nauth "g" {\ntype = "basic"\nusername="a"\npassword="b"\n}\nconnection "postgres" "p" {\nurl = "pglite:"\n}\n' +
    'endpoint "GET /a" {\nrequest {\nquery {\nfield "q" {\ntype = string\n}\n}\nquery "q" {\ntype = string\n}\nbody = schema.s\nbody {\n}\n}\npipeline {\nsql "x" {\nquery = "select 1"\nquery = "select 2"\n}\nsql "x" {\nquery = "x"\n}\nrespond {\nbody = 1\n}\nrespond {\nbody = 2\n}\n}\npipeline {\n}\n}\n'
  ).repeat(3),
  cycleListMap:
    'schema "a" {\n field "b" {\n type = list(schema.b)\n required = true\n min_items = 1\n }\n}\nschema "b" {\n field "a" {\n type = map(schema.a)\n required = true\n default = {}\n }\n field "self" {\n type = schema.b\n required = true\n }\n}\nendpoint "POST /x" {\n request {\n body = schema.a\n query {\n field "q" {\n type = schema.a\n }\n }\n }\n pipeline {\n respond {\n body = ctx.request.body.b[0].a.x.b\n }\n }\n}\n',
  selfBody:
    'schema "x" {\n field "y" {\n type = schema.x\n default = {y = {y = {}}}\n }\n field "z" {\n type = list(schema.x)\n default = [{}]\n }\n}\nroute "POST /x" {\n request {\n body = x\n }\n respond {\n body = ctx.request.body.y.y.y.z\n }\n}\n',
  selfDefaultEndless:
    'schema "x" {\n field "y" {\n type = schema.x\n default = {}\n }\n}\nroute "POST /x" {\n request {\n body = x\n }\n respond {\n body = 1\n }\n}\n',
  bodyIsSelf:
    'schema "x" {\n field "x" {\n type = schema.x\n }\n}\nendpoint "POST /x" {\n request {\n body = schema.x\n path {\n field "x" {\n type = schema.x\n }\n }\n headers {\n field "h" {\n type = map(schema.x)\n }\n }\n }\n pipeline {\n respond {\n body = 1\n }\n }\n}\n',
  manyEnum:
    'endpoint "GET /a" {\n request {\n query {\n field "q" {\n type = string\n enum = [' +
    Array.from({ length: 20000 }, (_, i) => `"v${i}"`).join(',') +
    ']\n pattern = "(a+)+$"\n default = "v1"\n }\n }\n }\n pipeline {\n respond {\n body = 1\n }\n }\n}\n',
  weirdPattern:
    'endpoint "GET /a" {\n request {\n query {\n field "q" {\n type = string\n pattern = "\\\\p{Foo}"\n }\n field "r" {\n type = string\n pattern = "[[:alpha:]]"\n default = "x"\n }\n field "s" {\n type = string\n pattern = "(?<n>a)\\\\k<n>"\n default = "aa"\n }\n }\n }\n pipeline {\n respond {\n body = 1\n }\n }\n}\n',
  protoNames:
    'schema "__proto__" {\n field "__proto__" {\n type = string\n }\n}\nschema "constructor" {\n field "hasOwnProperty" {\n type = string\n default = "x"\n }\n}\nconnection "redis" "__proto__" {\n url = "memory:"\n}\nauth "__proto__" {\n type = "basic"\n username = "a"\n password = "b"\n}\nroute "POST /__proto__/{__proto__}" {\n request {\n body = constructor\n header "__proto__" {\n type = string\n }\n }\n kv "__proto__" {\n connection = "__proto__"\n op = "get"\n key = "x"\n }\n respond {\n body = steps.__proto__.value\n }\n}\n',
  weirdDefaults:
    'endpoint "GET /a" {\n request {\n query {\n field "a" {\n type = any\n default = {x = [1, {y = null}]}\n }\n field "b" {\n type = list(any)\n default = [[1],[2]]\n unique_items = true\n }\n field "c" {\n type = number\n default = 1e400\n }\n field "d" {\n type = string\n format = "date"\n default = "2020-02-30"\n }\n }\n }\n pipeline {\n respond {\n body = 1\n }\n }\n}\n',
};

test('hostile manifests produce located diagnostics, never exceptions', () => {
  for (const [name, source] of Object.entries(NASTY)) {
    let result: ReturnType<typeof buildServiceModel> | undefined;
    try {
      // Each twice, in two files: every top-level declaration is also a duplicate across files.
      result = buildServiceModel([
        { filename: 'a.hcl', source },
        { filename: 'b.hcl', source: name === 'dupAll' ? source : '' },
      ]);
    } catch (e) {
      assert.fail(`${name}: ${(e as Error).stack}`);
    }
    assertServable(result, name);
    for (const d of result.diagnostics) assert.ok(d.subject, `${name}: "${d.summary}" has no location`);
  }
});
