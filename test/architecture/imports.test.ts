/**
 * Holds the import rules of ARCHITECTURE.md and CONTRIBUTING.md:
 * - layers: imports flow one way (cli -> http -> steps/openapi -> connectors/stream/auth -> model ->
 *   manifest -> expr/schema/graph -> hcl/starlark -> diag/problem/json/regex/io/heap/package);
 * - the engine and the interpreters stand alone;
 * - another area is imported only through its `index.ts` (what it does not export there is private);
 * - no import cycle between files, type-only imports included (the parsers' own grammar recursion
 *   aside);
 * - drivers, fastify, prom-client, jose, re2js and OpenTelemetry each have exactly one home.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';
import { ROOT as root } from '../paths.js';

/** Layer of each area: an area may import only from areas of a strictly lower layer (or itself). */
const LAYER: Record<string, number> = {
  'src/diag': 0,
  'src/problem': 0,
  'src/json': 0,
  'src/regex': 0,
  'src/io': 0,
  'src/heap': 0,
  'src/package': 0,
  'src/tracing': 0,
  'src/hcl': 1,
  'src/starlark': 1,
  graph: 2,
  'src/expr': 2,
  'src/schema': 2,
  'src/manifest': 3,
  'src/model': 4,
  'src/connectors': 5,
  'src/stream': 5,
  'src/auth': 5,
  'src/docs': 5,
  'src/steps': 6,
  'src/openapi': 6,
  'src/http': 7,
  'src/cli': 8,
  // The public API (src/index.ts re-exports it): svc as a library, built on what the commands use.
  'src/api': 9,
};

/** Areas that import nothing of the project but what is listed. */
const STANDALONE: Record<string, string[]> = {
  'src/diag': [],
  'src/problem': [],
  'src/json': [],
  'src/regex': [],
  'src/io': [],
  'src/heap': [],
  'src/package': [],
  'src/tracing': [],
  'src/hcl': ['src/diag'],
  'src/starlark': [],
  graph: [],
};

/** Packages that only one area may import. */
const PACKAGE_HOME: Record<string, string> = {
  fastify: 'src/http',
  '@fastify/': 'src/http',
  pg: 'src/connectors',
  'pg-query-stream': 'src/connectors',
  '@electric-sql/pglite': 'src/connectors',
  '@electric-sql/pglite-socket': 'src/connectors',
  ioredis: 'src/connectors',
  mysql2: 'src/connectors',
  undici: 'src/connectors',
  jose: 'src/auth',
  marked: 'src/docs',
  re2js: 'src/regex',
  'prom-client': 'src/http',
  '@opentelemetry/': 'src/tracing',
};

/**
 * Cycles that are the grammar's own recursion: an expression contains templates that contain
 * expressions. Listed by the files of the cycle, sorted.
 */
const ALLOWED_CYCLES = new Set(['src/hcl/parser-expr.ts src/hcl/parser-template.ts']);

function* sourceFiles(dir: string): Generator<string> {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (name.endsWith('.ts')) yield path;
  }
}

function rel(file: string): string {
  return relative(root, file).split('\\').join('/');
}

function areaOf(file: string): string | undefined {
  const r = rel(file);
  return Object.keys(LAYER)
    .filter((a) => r === a || r.startsWith(a + '/'))
    .sort((a, b) => b.length - a.length)[0];
}

// `... from 'x'`, side-effect `import 'x'`, dynamic `import('x')`, and `require('x')` (a CommonJS
// package loaded lazily through createRequire); comments are skipped.
const IMPORT =
  /^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/gm;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) out.push((m[1] ?? m[2] ?? m[3] ?? m[4])!);
  return out;
}

/** The file a relative specifier names (`./x.js` is `./x.ts` on disk). */
function resolveLocal(from: string, spec: string): string {
  const target = resolve(dirname(from), spec);
  const ts = target.replace(/\.js$/, '.ts');
  if (existsSync(ts)) return ts;
  if (existsSync(join(target, 'index.ts'))) return join(target, 'index.ts');
  return ts;
}

const FILES = [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'graph'))];

test('imports follow the layering of ARCHITECTURE.md', () => {
  const violations: string[] = [];
  for (const file of FILES) {
    const from = areaOf(file);
    if (!from) continue;
    for (const spec of importsOf(file)) {
      if (spec.startsWith('.')) {
        const to = areaOf(resolveLocal(file, spec));
        if (!to || to === from) continue;
        const allowed = STANDALONE[from];
        if (allowed && !allowed.includes(to)) violations.push(`${rel(file)}: ${from} must not import ${to} (${spec})`);
        else if (LAYER[to]! >= LAYER[from]!) violations.push(`${rel(file)}: ${from} must not import ${to} of the same or a higher layer (${spec})`);
      } else {
        for (const [pkg, home] of Object.entries(PACKAGE_HOME)) {
          const matches = pkg.endsWith('/') ? spec.startsWith(pkg) : spec === pkg || spec.startsWith(pkg + '/');
          if (matches && from !== home) violations.push(`${rel(file)}: only ${home} may import ${spec}`);
        }
      }
    }
  }
  assert.deepEqual(violations, []);
});

test('another area is imported only through its index.ts', () => {
  const violations: string[] = [];
  for (const file of FILES) {
    const from = areaOf(file);
    for (const spec of importsOf(file)) {
      if (!spec.startsWith('.')) continue;
      const target = resolveLocal(file, spec);
      const to = areaOf(target);
      if (!to || to === from) continue;
      if (rel(target) !== `${to}/index.ts`) violations.push(`${rel(file)}: imports ${rel(target)}; import ${to}/index.js instead`);
    }
  }
  assert.deepEqual(violations, []);
});

/** Strongly connected components of the file import graph with more than one file (Tarjan). */
function importCycles(): string[][] {
  const edges = new Map<string, string[]>();
  for (const file of FILES) {
    const targets = importsOf(file)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolveLocal(file, s))
      .filter((t) => existsSync(t));
    edges.set(file, targets);
  }
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    indexOf.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
      }
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(rel(w));
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const file of edges.keys()) if (!indexOf.has(file)) visit(file);
  return cycles;
}

test('no import cycle between files (type-only imports included)', () => {
  const cycles = importCycles()
    .map((c) => c.join(' '))
    .filter((c) => !ALLOWED_CYCLES.has(c));
  assert.deepEqual(cycles, []);
});

test('every folder of src/ has a layer (a folder the rules do not know is held to none of them)', () => {
  const folders = readdirSync(join(root, 'src')).filter((name) => statSync(join(root, 'src', name)).isDirectory());
  const unknown = folders.filter((name) => LAYER[`src/${name}`] === undefined);
  assert.deepEqual(unknown, [], `add these to LAYER (and to STANDALONE where they import nothing else): ${unknown.join(', ')}`);
});
