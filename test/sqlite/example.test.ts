/**
 * examples/sqlite-crud end to end: the `svc` command serving a copy of it as a process, its CRUD
 * requests over HTTP, SIGTERM, then a second start on the same file: the migration is not applied
 * twice and what was written is still there. Node's ExperimentalWarning for node:sqlite is not
 * printed (svc drops exactly that one).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureBuilt } from '../e2e/build.js';
import { ROOT } from '../paths.js';
import { scratchDir, SQLITE_ONLY } from './helpers.js';

interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  stdout(): string;
  stderr(): string;
}

interface Task {
  readonly id: number;
  readonly title: string;
  readonly done: boolean;
  readonly tags: readonly string[];
  readonly created_at: string;
}

/** A response's JSON body, typed as the test reads it. */
async function body<T>(response: Response | Promise<Response>): Promise<T> {
  return (await (await response).json()) as T;
}

async function serve(dir: string): Promise<Served> {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, ['bin/svc.js', 'serve', '-c', dir, '--port', '0'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`svc did not start listening within 30 s:\n${err}`)), 30_000);
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`svc exited with ${code} before listening:\n${err}`));
    });
  });
  return { child, url, stdout: () => out, stderr: () => err };
}

async function stop(served: Served): Promise<number | null> {
  const exited = once(served.child, 'exit');
  served.child.kill('SIGTERM');
  const [code] = await exited;
  return code as number | null;
}

describe('examples/sqlite-crud', SQLITE_ONLY, () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>;
  let dir: string;
  before(async () => {
    ensureBuilt();
    scratch = await scratchDir();
    dir = join(scratch.dir, 'sqlite-crud');
    await cp(join(ROOT, 'examples', 'sqlite-crud'), dir, { recursive: true, filter: (src) => !src.includes('.data') });
  });
  after(() => scratch.remove());

  test('serves its CRUD API, and a restart keeps the data and applies nothing twice', async () => {
    const first = await serve(dir);
    try {
      const get = (path: string) => fetch(first.url + path);
      const send = (method: string, path: string, payload: unknown) =>
        fetch(first.url + path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });

      const list = await body<{ tasks: Task[] }>(get('/tasks'));
      assert.equal(list.tasks.length, 2);
      assert.deepEqual(Object.keys(list.tasks[0]!), ['id', 'title', 'done', 'tags', 'created_at']);
      assert.equal(list.tasks[0]!.done, true);
      assert.deepEqual(list.tasks[1]!.tags, ['svc', 'hcl']);

      const made = await send('POST', '/tasks', { title: 'Ship it', tags: ['release'] });
      assert.equal(made.status, 201);
      const task = await body<Task>(made);
      assert.equal(made.headers.get('location'), `/tasks/${task.id}`);
      assert.deepEqual({ ...task, created_at: undefined }, { id: 3, title: 'Ship it', done: false, tags: ['release'], created_at: undefined });

      const again = await send('POST', '/tasks', { title: 'Ship it' });
      assert.equal(again.status, 409);
      assert.match(again.headers.get('content-type')!, /^application\/problem\+json/);
      assert.equal((await body<{ title: string }>(again)).title, 'Title already used');
      assert.equal((await send('POST', '/tasks', { tags: 'x' })).status, 422);

      const patched = await send('PATCH', '/tasks/3', { done: true });
      assert.equal((await body<Task>(patched)).done, true);
      assert.equal((await body<Task>(get('/tasks/3'))).title, 'Ship it', 'a field left out is kept');
      const history = await body<{ events: { kind: string }[] }>(get('/tasks/3/history'));
      assert.deepEqual(
        history.events.map((e) => e.kind),
        ['created'],
      );
      assert.equal((await get('/tasks?done=true&limit=1')).status, 200);

      const exported = await get('/tasks.ndjson');
      assert.match(exported.headers.get('content-type')!, /ndjson/);
      assert.equal((await exported.text()).trim().split('\n').length, 3);

      assert.equal((await fetch(`${first.url}/tasks/2`, { method: 'DELETE' })).status, 204);
      assert.equal((await get('/tasks/2')).status, 404);
      assert.equal((await fetch(`${first.url}/tasks/2`, { method: 'DELETE' })).status, 404);
    } finally {
      assert.equal(await stop(first), 0);
    }
    assert.match(first.stdout(), /"migration":"001_tasks\.sql"/);
    assert.doesNotMatch(first.stderr(), /ExperimentalWarning|experimental feature/);

    const second = await serve(dir);
    try {
      const titles = (await body<{ tasks: Task[] }>(fetch(`${second.url}/tasks`))).tasks.map((t) => t.title);
      assert.deepEqual(titles, ['Read the manual', 'Ship it']);
    } finally {
      assert.equal(await stop(second), 0);
    }
    assert.doesNotMatch(second.stdout(), /migration applied/);
  });
});
