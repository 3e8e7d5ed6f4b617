/**
 * Property-based fuzzing of manifest text (issue 15): the manifests of examples/ and the HCL fixtures
 * of test/, mutated (ranges deleted, duplicated or swapped, syntax and stress tokens inserted, text
 * truncated), are checked and compiled as `svc check` does. For every mutant:
 * - the check ends within CASE_MS (no stall) and throws nothing (an exception is `svc check`'s
 *   "internal error");
 * - every diagnostic has a catalogued code, and neither it nor its rendering shows internals (a
 *   stack frame, a source path, an engine error name).
 * `npm test` runs a short budget with a fixed seed; `npm run fuzz` a long one (budget.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { createConnectors } from '../../src/connectors/index.js';
import { codeOf, renderDiagnostics, type Diagnostic } from '../../src/diag/index.js';
import { buildServiceModel, compileService } from '../../src/steps/index.js';
import { budget, CASE_MS } from './budget.js';
import { INTERNALS } from './oracle.js';
import { ROOT } from '../paths.js';

interface SourceFile {
  readonly filename: string;
  readonly source: string;
}

function hclFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...hclFiles(path));
    else if (name.endsWith('.hcl')) out.push(path);
  }
  return out;
}

/** Each example is one manifest of several files; each test fixture is a manifest of its own. */
const CORPUS: SourceFile[][] = [
  ...readdirSync(join(ROOT, 'examples'))
    .filter((name) => statSync(join(ROOT, 'examples', name)).isDirectory())
    .map((name) => hclFiles(join(ROOT, 'examples', name))),
  ...hclFiles(join(ROOT, 'test')).map((file) => [file]),
]
  .filter((files) => files.length > 0)
  .map((files) => files.map((file) => ({ filename: relative(ROOT, file), source: readFileSync(file, 'utf8') })));

/** Syntax, keywords and the stress cases of issue 15 (deep nesting, long chains, huge widths, regexes). */
const TOKENS = [
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  '"',
  '${',
  '%{',
  '%{ for x in ctx.request.query }',
  '%{ endfor }',
  '=',
  ',',
  '.',
  '*',
  '[0]',
  '[*]',
  '...',
  '?',
  ':',
  '=>',
  '!',
  '-',
  '\n',
  '#',
  '/*',
  '*/',
  '<<EOT\n',
  '\nEOT\n',
  'null',
  'true',
  '1e400',
  '-0',
  '9007199254740993',
  '"\\u0000"',
  '"\\ud800"',
  'endpoint "GET /f" {',
  'pipeline {',
  'respond {',
  'starlark "s" {',
  'request {',
  'field "f" {',
  'schema "s" {',
  'type = string',
  'ctx.request.query.x',
  'steps.x.result',
  // hclapi's spellings, which src/manifest/compat rewrites before decoding.
  'api { prefix = "/v1", auth = [auth.a] }',
  'catch "23505" { abort_with_status = 409 }',
  'pool { max_open_conns = 1, size = 2 }',
  'json_decode(steps.x.result)',
  'schema = { n = int }',
  'replace(ctx.request.path.x, "/(a+)+$/", "")',
  'pattern = "^(a+)+$"',
  'pattern = "(?=x)"',
  'format("%0999999d", 1)',
  'json_decode("[[[[[[[[[[1]]]]]]]]]]")',
  '[0]'.repeat(200),
  '['.repeat(200),
  '+ 1'.repeat(200),
  'source = "def execute(ctx):\\n    return [[[[[[[[1]]]]]]]]"',
];

type Mutation =
  | { readonly kind: 'delete' | 'duplicate' | 'truncate'; readonly at: number; readonly length: number }
  | { readonly kind: 'insert'; readonly at: number; readonly token: string }
  | { readonly kind: 'swap'; readonly at: number; readonly other: number; readonly length: number };

const position = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('delete' as const, 'duplicate' as const, 'truncate' as const), at: position, length: fc.integer({ min: 1, max: 80 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: position, token: fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 8 })) }),
  fc.record({ kind: fc.constant('swap' as const), at: position, other: position, length: fc.integer({ min: 1, max: 40 }) }),
);

function mutate(text: string, m: Mutation): string {
  const at = Math.floor(m.at * (text.length + 1));
  switch (m.kind) {
    case 'delete':
      return text.slice(0, at) + text.slice(at + m.length);
    case 'duplicate':
      return text.slice(0, at + m.length) + text.slice(at, at + m.length) + text.slice(at + m.length);
    case 'truncate':
      return text.slice(0, at);
    case 'insert':
      return text.slice(0, at) + m.token + text.slice(at);
    case 'swap': {
      const [a, b] = [at, Math.floor(m.other * (text.length + 1))].sort((x, y) => x - y) as [number, number];
      const len = Math.min(m.length, b - a);
      return text.slice(0, a) + text.slice(b, b + len) + text.slice(a + len, b) + text.slice(a, a + len) + text.slice(b + len);
    }
  }
}

const mutant = fc
  .tuple(fc.nat({ max: CORPUS.length - 1 }), fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 4 }))
  .map(([which, fileIndex, mutations]) => {
    const files = CORPUS[which]!;
    const target = fileIndex % files.length;
    return { changed: target, files: files.map((f, i) => (i === target ? { ...f, source: mutations.reduce(mutate, f.source) } : f)) };
  });

/** What is wrong with checking `files`, or undefined. */
function checkDefect(files: readonly SourceFile[]): string | undefined {
  const start = performance.now();
  let diagnostics: Diagnostic[];
  let rendered: string;
  try {
    const built = buildServiceModel(files);
    diagnostics = [...built.diagnostics];
    if (built.model && !diagnostics.some((d) => d.severity === 'error')) {
      diagnostics.push(...compileService(built.model, { connectors: createConnectors(built.model) }).diagnostics);
    }
    rendered = renderDiagnostics(diagnostics, built.sources);
  } catch (e) {
    return `threw ${(e as Error).stack ?? String(e)}`;
  }
  const ms = performance.now() - start;
  if (ms > CASE_MS) return `took ${Math.round(ms)} ms`;
  const uncatalogued = diagnostics.find((d) => codeOf(d) === undefined);
  if (uncatalogued) return `a diagnostic without a code: ${uncatalogued.summary}: ${uncatalogued.detail ?? ''}`;
  const shown = internalsShown(rendered, files);
  if (shown) return `a diagnostic shows internals (${JSON.stringify(shown[0])}): ${rendered.slice(Math.max(0, shown.index! - 300), shown.index! + 300)}`;
  return undefined;
}

/**
 * Internals in the rendering that the manifest's own text does not hold: a diagnostic quotes its
 * source line as written, and a mutation may have brought a fixture's comment that names a path of
 * svc's sources (found by `npm run fuzz`, seed 511793516) into code, where it is quoted.
 */
function internalsShown(rendered: string, files: readonly SourceFile[]): RegExpMatchArray | undefined {
  for (const match of rendered.matchAll(new RegExp(INTERNALS.source, 'g'))) if (!files.some((f) => f.source.includes(match[0]))) return match;
  return undefined;
}

test('the corpus checks as it is: every fixture is a manifest the checker handles', () => {
  assert.ok(CORPUS.length > 20, `${CORPUS.length} manifests`);
  for (const files of CORPUS) assert.equal(checkDefect(files), undefined, files.map((f) => f.filename).join(', '));
});

test('mutated manifests: checked in time, without an exception, every diagnostic catalogued and free of internals', () => {
  fc.assert(
    fc.property(mutant, ({ files, changed }) => {
      const defect = checkDefect(files);
      if (defect !== undefined) assert.fail(`${defect}\n--- ${files[changed]!.filename} as mutated:\n${files[changed]!.source.slice(0, 4000)}`);
    }),
    budget({ short: 300, long: 50_000, shortMs: 8000, longMs: 600_000 }),
  );
});
