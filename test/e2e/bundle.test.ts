/**
 * The `svc` command from its bundle (scripts/bundle.ts: dist/bundle/svc.js and its chunks), as
 * bin/svc.js runs it once the build made it: bin/svc.js loads the bundle and none of dist/src; the
 * bundle holds or loads the very packages dist/src loads (bundling pulls no lazily loaded package
 * into the boot); every file svc finds from its own location is found from dist/bundle (package.json's
 * version, the documentation renderers under vendor/, the Starlark pool's worker entry); every
 * command works; `--workers 2` forks workers that run it and roll over on SIGHUP; its files are ASCII.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { get } from '../cli/serve-helpers.js';
import { ensureBundled } from './build.js';
import { ROOT as root } from '../paths.js';

ensureBundled();

const dirs: string[] = [];
after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bundle-'));
  dirs.push(dir);
  return dir;
}

/**
 * A module hook that appends the URL of every module Node loads through its ES module loader to a
 * file, and at exit the CommonJS modules loaded (`require.cache`: the ones CommonJS packages load in
 * turn, which the hook does not see on every Node.js line).
 */
async function loadRecorder(dir: string): Promise<string> {
  await writeFile(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(file, url + '\\n');
  return next(url, context);
}
`,
  );
  const register = join(dir, 'register.mjs');
  await writeFile(
    register,
    `import { register, createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const file = process.env.SVC_TEST_LOADED;
register('./hooks.mjs', import.meta.url, { data: { file } });
const cache = createRequire(import.meta.url).cache;
process.on('exit', () => appendFileSync(file, Object.keys(cache).map((path) => pathToFileURL(path).href + '\\n').join('')));
`,
  );
  return register;
}

interface Serving {
  readonly url: string;
  stderr(): string;
  signal(signal: NodeJS.Signals): void;
  /** Resolves once stderr matches `pattern`; rejects after 60 s or when the process exits. */
  waitFor(pattern: RegExp): Promise<void>;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `node [nodeArgs] bin/svc.js serve -c DIR --port 0 [args]`, once it says where it listens. */
async function serve(dir: string, args: readonly string[] = [], env: Record<string, string> = {}, nodeArgs: readonly string[] = []): Promise<Serving> {
  const child = spawn(process.execPath, [...nodeArgs, 'bin/svc.js', 'serve', '-c', dir, '--port', '0', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  after(() => stop('SIGKILL'));
  const url = await new Promise<string>((resolve, reject) => {
    const listening = (): void => {
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]!);
    };
    child.stderr!.on('data', listening);
    exited.then((code) => reject(new Error(`svc serve exited with ${code} before it listened:\n${err}`)));
  });
  const waitFor = (pattern: RegExp): Promise<void> =>
    new Promise((resolve, reject) => {
      const deadline = Date.now() + 60_000;
      const timer = setInterval(() => {
        if (pattern.test(err)) resolve();
        else if (child.exitCode !== null || Date.now() > deadline) reject(new Error(`svc serve did not print ${pattern}:\n${err}`));
        else return;
        clearInterval(timer);
      }, 50);
    });
  return { url, stderr: () => err, signal: (signal) => child.kill(signal), waitFor, stop };
}

/** `node bin/svc.js ...args`: its exit code and output. */
function svc(args: readonly string[], cwd = root): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'bin/svc.js'), ...args], { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Polls `url` until it answers (a rollover may refuse a connection for a moment); bounded. */
async function answer(url: string, init?: RequestInit): Promise<Response> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** What a start of the quickstart loads until its first answer: svc's own files and the packages. */
async function quickstartLoads(env: Record<string, string>): Promise<{ own: string[]; packages: Set<string> }> {
  const dir = await tempDir();
  const register = await loadRecorder(dir);
  const record = join(dir, 'loaded.txt');
  const served = await serve('examples/quickstart', [], { ...env, SVC_TEST_LOADED: record }, ['--import', register]);
  const health = await answer(`${served.url}/api/v1/health`);
  assert.equal(health.status, 200);
  assert.equal(await served.stop(), 0, served.stderr());
  const files = readFileSync(record, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((url) => fileURLToPath(url));
  const own = [...new Set(files.filter((path) => path.startsWith(join(root, 'dist') + '/')))];
  // A package bundled into a file of dist/bundle the start loaded counts as loaded (its metafile says
  // which packages each output file holds).
  const bundledInputs = own.flatMap((path) => Object.keys(bundleOutputs()[relative(root, path)]?.inputs ?? {}));
  const packages = new Set([...files, ...bundledInputs].flatMap((path) => packageOf(path) ?? []));
  return { own, packages };
}

function packageOf(path: string): string | undefined {
  // The innermost node_modules: a package's own copy of another is that other package.
  return /(?:^|.*\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
}

let outputs: Record<string, { inputs: Record<string, unknown> }> | undefined;
/** scripts/bundle.ts's esbuild metafile: each output file of dist/bundle with the modules it holds. */
function bundleOutputs(): Record<string, { inputs: Record<string, unknown> }> {
  outputs ??= (JSON.parse(readFileSync(join(root, 'dist/bundle/metafile.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> })
    .outputs;
  return outputs;
}

test('bin/svc.js serves from the bundle, which holds or loads the packages dist/src loads, in a few files instead of hundreds', async () => {
  const bundled = await quickstartLoads({});
  const compiled = await quickstartLoads({ SVC_BUNDLE: '0' });

  assert.deepEqual(
    bundled.own.filter((path) => !path.startsWith(join(root, 'dist/bundle') + '/')),
    [],
    'the bundled command loaded files of dist/ beside its bundle',
  );
  assert.ok(bundled.own.includes(join(root, 'dist/bundle/svc.js')), 'bin/svc.js did not load dist/bundle/svc.js');
  assert.ok(
    compiled.own.some((path) => path.startsWith(join(root, 'dist/src') + '/')),
    'SVC_BUNDLE=0 loaded no file of dist/src',
  );
  assert.ok(bundled.own.length * 5 < compiled.own.length, `the bundle's ${bundled.own.length} files are not a fraction of dist/src's ${compiled.own.length}`);
  assert.deepEqual(
    [...compiled.packages].filter((name) => !bundled.packages.has(name)),
    [],
    'packages dist/src loads that the bundled start neither loaded nor held',
  );
  // A package the bundled start holds and dist/src never loaded is one that a bundled CommonJS
  // package asks for with `require()` where it needs it (Fastify's inject, its default schema
  // compilers): bundled, but not run. None is reached by an import of svc's own code.
  const extras = new Set([...bundled.packages].filter((name) => !compiled.packages.has(name)));
  const inputs = (JSON.parse(readFileSync(join(root, 'dist/bundle/metafile.json'), 'utf8')) as Metafile).inputs;
  for (const [input, { imports }] of Object.entries(inputs)) {
    const from = packageOf(input);
    for (const { path, kind } of imports) {
      const to = packageOf(path);
      if (to === undefined || !extras.has(to) || from === to) continue;
      assert.ok(from !== undefined && kind === 'require-call', `${input} reaches ${to}, which dist/src does not load at boot, by ${kind}`);
    }
  }
});

test("the bundle's files are ASCII: V8 holds each one's source as a one-byte string", () => {
  const outputs = JSON.parse(readFileSync(join(root, 'dist/bundle/outputs.json'), 'utf8')) as string[];
  const scripts = outputs.filter((name) => name.endsWith('.js'));
  assert.ok(scripts.includes('svc.js'), 'dist/bundle/outputs.json lists no svc.js');
  for (const name of scripts) {
    const source = readFileSync(join(root, 'dist/bundle', name), 'utf8');
    const wide = /[^\x00-\x7f]/.exec(source);
    assert.equal(
      wide,
      null,
      `dist/bundle/${name} holds ${JSON.stringify(wide?.[0])} near ${JSON.stringify(source.slice(Math.max(0, (wide?.index ?? 0) - 40), (wide?.index ?? 0) + 10))}`,
    );
  }
});

interface Metafile {
  readonly inputs: Record<string, { readonly imports: readonly { readonly path: string; readonly kind: string }[] }>;
}

test('the bundled commands: --version, check, openapi, graph, fmt, starlark, init', async () => {
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  assert.equal((await svc(['--version'])).stdout, `svc ${version}\n`);

  const check = await svc(['check', '-c', 'examples/quickstart']);
  assert.equal(check.code, 0, check.stderr);

  const openapi = await svc(['openapi', '-c', 'examples/quickstart']);
  assert.equal(openapi.code, 0, openapi.stderr);
  assert.equal((JSON.parse(openapi.stdout) as { info: { title: string } }).info.title, 'Quickstart');
  const yaml = await svc(['openapi', '-c', 'examples/quickstart', '--format=yaml']);
  assert.match(yaml.stdout, /^openapi: 3\.1\.\d+\n/);

  const graph = await svc(['graph', '-c', 'examples/quickstart']);
  assert.equal(graph.code, 0, graph.stderr);
  assert.match(graph.stdout, /^digraph /m);

  const dir = await tempDir();
  await writeFile(join(dir, 'main.hcl'), 'endpoint "GET /a" {\npipeline {\nrespond {\nbody = { a = 1 }\n}\n}\n}\n');
  assert.equal((await svc(['fmt', '--check', '-c', dir])).code, 1);
  assert.equal((await svc(['fmt', '-c', dir])).code, 0);
  assert.equal((await svc(['fmt', '--check', '-c', dir])).code, 0);

  await writeFile(join(dir, 'double.star'), 'def execute(ctx):\n    return {"twice": ctx["n"] * 2}\n');
  const starlark = await svc(['starlark', join(dir, 'double.star'), '--ctx', '{"n": 21}']);
  assert.equal(starlark.code, 0, starlark.stderr);
  assert.deepEqual(JSON.parse(starlark.stdout), { twice: 42 });

  const project = join(dir, 'project');
  const init = await svc(['init', project, '--title', 'Bundled']);
  assert.equal(init.code, 0, init.stderr);
  assert.ok(existsSync(join(project, 'main.hcl')) || init.stdout.includes('main.hcl'), init.stdout);
  const checked = await svc(['check', '-c', project]);
  assert.equal(checked.code, 0, checked.stderr);
});

test('served from the bundle: a Starlark call on the worker pool, documentation pages and their vendored assets', async () => {
  const dir = await tempDir();
  await writeFile(
    join(dir, 'main.hcl'),
    `
openapi {
  title   = "Bundled"
  version = "1"
}

endpoint "GET /sum" {
  pipeline {
    starlark "sum" {
      timeout   = "20s"
      max_steps = 100000000
      source    = <<-EOT
        def execute(ctx):
            n = 0
            for i in range(2000000):
                n += i
            return {"n": n}
      EOT
    }
    respond {
      body = steps.sum.result
    }
  }
}

endpoint "GET /openapi.json" {
  openapi {
    format = "json"
  }
}

endpoint "GET /docs" {
  openapi {
    ui = "scalar"
  }
}
`,
  );
  const served = await serve(dir);
  // Two million iterations are far past the slice a call may take on the event loop: the pool runs it.
  const sum = await answer(`${served.url}/sum`);
  assert.equal(sum.status, 200, await sum.clone().text());
  assert.deepEqual(await sum.json(), { n: 1999999000000 });

  const page = await answer(`${served.url}/docs`);
  assert.equal(page.status, 200);
  const html = await page.text();
  const asset = /(?:src|href)="([^"]*\/docs\/assets\/[^"]+)"/.exec(html)?.[1];
  assert.ok(asset, `no asset in the page:\n${html.slice(0, 2000)}`);
  const script = await answer(new URL(asset, served.url).href);
  assert.equal(script.status, 200);
  assert.ok((await script.arrayBuffer()).byteLength > 10_000, 'the renderer asset is the vendored bundle');
  assert.equal(await served.stop(), 0, served.stderr());
});

test('--workers 2 from the bundle: both workers serve, SIGHUP rolls them over to the new manifest', async () => {
  const dir = await tempDir();
  const manifest = (version: number): string => `endpoint "GET /health" {\n  pipeline {\n    respond {\n      body = { version = ${version} }\n    }\n  }\n}\n`;
  await writeFile(join(dir, 'main.hcl'), manifest(1));
  const served = await serve(dir, ['--workers', '2']);
  assert.match(served.stderr(), /listening on \S+ \(1 endpoint, 2 workers\)/);
  assert.deepEqual(await (await answer(`${served.url}/health`)).json(), { version: 1 });

  await writeFile(join(dir, 'main.hcl'), manifest(2));
  served.signal('SIGHUP');
  await served.waitFor(/reloaded \(1 endpoint, 2 workers\)/);
  // On a new connection: fetch's keep-alive one may still reach a worker of the old manifest while it drains.
  assert.deepEqual(JSON.parse((await get(`${served.url}/health`)).body), { version: 2 });
  assert.equal(await served.stop(), 0, served.stderr());
});
