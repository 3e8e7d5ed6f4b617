/**
 * Holds the import rules of ARCHITECTURE.md: imports flow one way
 * (cli -> http -> model/steps/openapi -> expr/schema/graph -> hcl/diag), the engine and the
 * interpreters stand alone, and drivers and fastify each have exactly one home.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Layer of each top-level area: an area may import only from areas of a lower or equal layer. */
const LAYER: Record<string, number> = {
  'src/diag': 0,
  'src/problem': 0,
  'src/json': 0,
  'src/hcl': 1,
  'src/starlark': 1,
  'graph': 2,
  'src/expr': 2,
  'src/schema': 2,
  'src/manifest': 3,
  'src/model': 3,
  'src/steps': 3,
  'src/openapi': 3,
  'src/stream': 3,
  'src/connectors': 3,
  'src/http': 4,
  'src/cli': 5,
};

/** Areas that import nothing of the project but what is listed. */
const STANDALONE: Record<string, string[]> = {
  'src/diag': [],
  'src/problem': [],
  'src/json': [],
  'src/hcl': ['src/diag'],
  'src/starlark': [],
  'graph': [],
};

/** Packages that only one area may import. */
const PACKAGE_HOME: Record<string, string> = {
  fastify: 'src/http',
  '@fastify/': 'src/http',
  pg: 'src/connectors',
  'pg-query-stream': 'src/connectors',
  '@electric-sql/pglite': 'src/connectors',
  ioredis: 'src/connectors',
  undici: 'src/connectors',
};

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

function areaOf(file: string): string | undefined {
  const rel = relative(root, file).split('\\').join('/');
  return Object.keys(LAYER)
    .filter((a) => rel === a || rel.startsWith(a + '/'))
    .sort((a, b) => b.length - a.length)[0];
}

// `... from 'x'`, side-effect `import 'x'`, and dynamic `import('x')`.
const IMPORT = /\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) out.push((m[1] ?? m[2])!);
  return out;
}

test('imports follow the layering of ARCHITECTURE.md', () => {
  const violations: string[] = [];
  for (const file of [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'graph'))]) {
    const from = areaOf(file);
    if (!from) continue;
    for (const spec of importsOf(file)) {
      const rel = relative(root, file);
      if (spec.startsWith('.')) {
        const to = areaOf(resolve(dirname(file), spec));
        if (!to || to === from) continue;
        const allowed = STANDALONE[from];
        if (allowed && !allowed.includes(to)) violations.push(`${rel}: ${from} must not import ${to} (${spec})`);
        else if (LAYER[to]! > LAYER[from]!) violations.push(`${rel}: ${from} must not import the higher layer ${to} (${spec})`);
      } else {
        for (const [pkg, home] of Object.entries(PACKAGE_HOME)) {
          const matches = pkg.endsWith('/') ? spec.startsWith(pkg) : spec === pkg || spec.startsWith(pkg + '/');
          if (matches && from !== home) violations.push(`${rel}: only ${home} may import ${spec}`);
        }
      }
    }
  }
  assert.deepEqual(violations, []);
});
