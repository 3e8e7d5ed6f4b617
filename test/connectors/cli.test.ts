/**
 * The lifecycle as the commands use it: `svc check` and `svc graph` build the connectors and never
 * open one; `svc serve` opens every connection before it listens (a failure exits 1 without
 * listening) and closes them after its requests drain on SIGTERM.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { svc } from '../cli/helpers.js';
import { cleanup, closedPort, countingServer, tempDir } from './helpers.js';
import { ROOT as root, LOADER, moduleUrl } from '../paths.js';

after(cleanup);

async function manifest(connections: string): Promise<string> {
  const dir = await tempDir('svc-manifest-');
  await writeFile(
    join(dir, 'main.hcl'),
    `${connections}\nendpoint "GET /ping" {\n  pipeline {\n    respond {\n      status = 200\n      body   = { ok = true }\n    }\n  }\n}\n`,
  );
  return dir;
}

test('check and graph never open a connection', async () => {
  const server = await countingServer();
  try {
    const dir = await manifest(
      `connection "postgres" "main" {\n  url = "postgres://svc:secret@127.0.0.1:${server.port}/db"\n}\n` +
        `connection "postgres" "local" {\n  url = "pglite:data"\n}\n`,
    );
    const check = await svc(['check', '-c', dir]);
    assert.equal(check.code, 0, check.stderr);
    const graph = await svc(['graph', '-c', dir]);
    assert.equal(graph.code, 0, graph.stderr);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(server.connections(), 0);
    assert.equal(existsSync(join(dir, 'data')), false, 'the PGlite directory was created');
  } finally {
    await server.close();
  }
});

interface Run {
  readonly code: number | null;
  readonly stderr: string;
}

/** `svc serve` as a process (compiled, or the sources through tsx: test/paths.ts); `onListening` runs once it says where it listens. */
function serve(dir: string, onListening: (child: ReturnType<typeof spawn>, url: string) => void = () => {}): Promise<Run> {
  const entry = `import(${JSON.stringify(moduleUrl('src/cli/main.ts'))}).then(async (m) => { process.exitCode = await m.run(process.argv.slice(1)); })`;
  const child = spawn(process.execPath, [...LOADER, '-e', entry, 'serve', '-c', dir, '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let listening = false;
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    const m = /listening on (http:\/\/\S+)/.exec(stderr);
    if (m && !listening) {
      listening = true;
      onListening(child, m[1]!);
    }
  });
  return new Promise((resolveRun) => child.once('exit', (code) => resolveRun({ code, stderr })));
}

test('serve: a connection that cannot be opened exits 1 without listening, naming it without its password', async () => {
  const port = await closedPort();
  const dir = await manifest(`connection "postgres" "main" {\n  url = "postgres://svc:hunter22@127.0.0.1:${port}/app"\n}\n`);
  const run = await serve(dir);
  assert.equal(run.code, 1, run.stderr);
  assert.match(
    run.stderr,
    new RegExp(
      `svc serve: connection "postgres" "main" \\(postgres://svc:\\*\\*\\*@127\\.0\\.0\\.1:${port}/app\\) could not be opened after 5 attempts: connect ECONNREFUSED`,
    ),
  );
  assert.doesNotMatch(run.stderr, /listening on/);
  assert.doesNotMatch(run.stderr, /hunter22/);
});

test('serve: opens an embedded database before listening, closes it on SIGTERM and exits 0', async () => {
  const dir = await manifest(`connection "postgres" "main" {\n  url = "pglite:"\n}\n`);
  let answered: number | undefined;
  const run = await serve(dir, (child, url) => {
    void fetch(`${url}/ping`).then((response) => {
      answered = response.status;
      child.kill('SIGTERM');
    });
  });
  assert.equal(answered, 200);
  assert.equal(run.code, 0, run.stderr);
});
