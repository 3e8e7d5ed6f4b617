/**
 * The published declaration files (npm run build: dist/src/index.d.ts, the package's `types`): the
 * example program type-checks against them with `tsc`, a program misusing the API does not, and
 * examples/embedded runs: it registers its step kinds, serves its manifest, and stops on SIGTERM.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadService, type CustomStep } from '../../src/index.js';
import { lintProblems, validationErrors } from '../openapi/checks.js';
import { ROOT } from '../paths.js';

const DECLARATIONS = join(ROOT, 'dist/src/index.d.ts');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const EXAMPLE = join(ROOT, 'examples/embedded');

function tsc(project: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

test('the declaration files are built (npm run build)', () => {
  assert.ok(existsSync(DECLARATIONS), `${DECLARATIONS} is missing: run npm run build`);
});

test('examples/embedded type-checks against the declaration files', () => {
  const { status, output } = tsc(join(EXAMPLE, 'tsconfig.json'));
  assert.equal(status, 0, output);
});

test('a program misusing the API does not type-check, and says where', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-api-types-'));
  try {
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
          strict: true,
          noEmit: true,
          paths: { svc: [DECLARATIONS] },
        },
        files: ['good.ts', 'bad.ts'],
      }),
    );
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(
      join(dir, 'good.ts'),
      `import { defineStep, loadService, type ManifestDiagnostic } from 'svc';
export const step = defineStep({
  name: 'geo',
  attributes: { city: { type: 'string', required: true }, limit: { type: 'int' } },
  run: ({ city, limit }, { signal }) => ({ city: city.toUpperCase(), limit: (limit ?? 1).toFixed(0), aborted: signal.aborted }),
});
export async function check(dir: string): Promise<readonly ManifestDiagnostic[]> {
  const loaded = await loadService(dir, { steps: [step] });
  return loaded.diagnostics;
}
`,
    );
    writeFileSync(
      join(dir, 'bad.ts'),
      `import { defineStep, loadService } from 'svc';
export const step = defineStep({
  name: 'geo',
  attributes: { city: { type: 'string', required: true } },
  run: ({ city }) => ({ n: city.toFixed(1) }),
});
export const loaded = loadService(42);
`,
    );
    const { status, output } = tsc(join(dir, 'tsconfig.json'));
    assert.notEqual(status, 0);
    assert.match(output, /bad\.ts\(5,\d+\): error TS\d+: Property 'toFixed' does not exist on type 'string'/);
    assert.match(output, /bad\.ts\(7,\d+\): error TS2345/);
    assert.doesNotMatch(output, /good\.ts/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('examples/embedded checks its manifest and draws its graphs with its own step kinds', () => {
  const run = (command: string) => spawnSync(process.execPath, ['--import', 'tsx', join(EXAMPLE, 'server.ts'), command], { cwd: ROOT, encoding: 'utf8' });
  const check = run('check');
  assert.equal(check.status, 0, check.stderr);
  assert.equal(check.stdout, '2 endpoints, no error\n');
  assert.equal(check.stderr, '');
  const graph = run('graph');
  assert.equal(graph.status, 0, graph.stderr);
  assert.match(graph.stdout, /digraph/);
  assert.match(graph.stdout, /label="geocode\\nplace\\ncity"/);
  assert.match(graph.stdout, /label="waypoints\\nroute\\nfrom, to, count \(stream\)"/);
});

test("examples/embedded's geocode reports a city its gazetteer lacks with its own code, a warning", async () => {
  // The example's definitions, as the program builds them (through the package, so: npm run build).
  // TypeScript, loaded through tsx: the test itself runs compiled (scripts/test.sh), without a loader.
  const { tsImport } = await import('tsx/esm/api');
  const { geocode } = (await tsImport(join(EXAMPLE, 'steps.ts'), import.meta.url)) as { geocode: CustomStep };
  const dir = mkdtempSync(join(tmpdir(), 'svc-embedded-'));
  try {
    const pipeline = (city: string) =>
      `endpoint "GET /c" {\n  pipeline {\n    geocode "place" {\n      city = ${city}\n    }\n    respond {\n      body = steps.place.found\n    }\n  }\n}\n`;
    writeFileSync(join(dir, 'main.hcl'), pipeline('"Atlantis"'));
    const unknown = await loadService(dir, { steps: [geocode] });
    assert.equal(unknown.ok, true);
    assert.deepEqual(
      unknown.diagnostics.map((d) => [d.severity, d.code, d.summary, d.line, d.column]),
      [['warning', 'SVC_STEP_GEOCODE_UNKNOWN_CITY', 'City not in the gazetteer', 4, 14]],
    );
    writeFileSync(join(dir, 'main.hcl'), pipeline('"Paris"'));
    assert.deepEqual((await loadService(dir, { steps: [geocode] })).diagnostics, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('examples/embedded serves its manifest with its own step kinds, and stops on SIGTERM', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', join(EXAMPLE, 'server.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /listening on (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      void exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}`)));
    });
    const city = await fetch(`${url}/cities/Paris`);
    assert.deepEqual(await city.json(), { city: 'paris', lat: 48.8566, lon: 2.3522 });
    const unknown = await fetch(`${url}/cities/atlantis`);
    assert.equal(unknown.status, 404);
    const route = await fetch(`${url}/route?from=paris&to=lyon&steps=5`);
    const points = (await route.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { i: number; lat: number });
    assert.deepEqual(
      points.map((p) => p.i),
      [0, 1, 2, 3, 4],
    );
    assert.equal(points[0]!.lat, 48.8566);
    assert.equal(points[4]!.lat, 45.764);
    // The outputs' and items' schemas of the step definitions type the documented responses.
    type Content = Record<string, { schema: { properties: Record<string, unknown> } }>;
    type Paths = Record<string, { get: { responses: Record<string, { content: Content }> } }>;
    const document = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Paths };
    assert.deepEqual(Object.keys(document.paths).sort(), ['/cities/{name}', '/route']);
    const cityResponse = document.paths['/cities/{name}']!.get.responses['200']!.content['application/json']!.schema;
    assert.deepEqual(cityResponse.properties, { city: { type: 'string' }, lat: { type: ['number', 'null'] }, lon: { type: ['number', 'null'] } });
    const routeItem = document.paths['/route']!.get.responses['200']!.content['application/x-ndjson']!.schema;
    assert.deepEqual(routeItem.properties, { i: { type: 'integer' }, lat: { type: 'number' }, lon: { type: 'number' } });
    assert.deepEqual(await validationErrors(document), []);
    assert.deepEqual(
      (await lintProblems(document)).filter((p) => p.severity === 'error'),
      [],
    );
    child.kill('SIGTERM');
    assert.equal(await exited, 0, stderr);
  } finally {
    child.kill('SIGKILL');
  }
});
