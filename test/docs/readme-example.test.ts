/**
 * The README's complete example (the block after `<!-- example:notes -->`) is served as written,
 * with the migration the README names, on an in-memory PGlite (`DATABASE_URL=pglite:`): a note is
 * created and read back, an invalid body is a 422 and an unknown id a 404 problem, as the README
 * says. A change that breaks the example breaks this test, not a reader's first try.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, loadService } from '../../src/index.js';
import { ROOT } from '../paths.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The fenced block that follows a marker comment of the README. */
function exampleAfter(marker: string): string {
  const at = README.indexOf(`<!-- ${marker} -->`);
  assert.ok(at >= 0, `README.md has no <!-- ${marker} --> marker`);
  const block = /```hcl\n([\s\S]*?)\n```/.exec(README.slice(at));
  assert.ok(block, `no hcl block after <!-- ${marker} -->`);
  return block[1]!;
}

/** The migration as the README's sentence gives it: `migrations/001_notes.sql` (`CREATE TABLE ...;`). */
function migration(): string {
  const sql = /`migrations\/001_notes\.sql`\s*\(`(CREATE TABLE[^`]*)`\)/.exec(README);
  assert.ok(sql, 'README.md names migrations/001_notes.sql and its statement');
  return sql[1]!;
}

test("the README's complete example serves as the README says", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-readme-example-'));
  const before = process.env.DATABASE_URL;
  process.env.DATABASE_URL = 'pglite:';
  try {
    writeFileSync(join(dir, 'main.hcl'), exampleAfter('example:notes'));
    mkdirSync(join(dir, 'migrations'));
    writeFileSync(join(dir, 'migrations/001_notes.sql'), migration());
    const load = await loadService(dir);
    assert.equal(load.report, '', 'the example has no diagnostic');
    assert.ok(load.service);
    const server = await createServer(load.service, { log: { level: 'silent' } });
    try {
      const { url } = await server.listen({ host: '127.0.0.1', port: 0 });
      const created = await fetch(`${url}/notes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'hello' }),
      });
      assert.equal(created.status, 201);
      const note = (await created.json()) as { id: number; text: string };
      assert.equal(note.text, 'hello');

      const read = await fetch(`${url}/notes/${note.id}`);
      assert.equal(read.status, 200);
      assert.deepEqual(await read.json(), note);

      const invalid = await fetch(`${url}/notes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'x'.repeat(281) }),
      });
      assert.equal(invalid.status, 422);
      const problem = (await invalid.json()) as { invalid_params: { name: string; in: string }[] };
      assert.deepEqual(
        problem.invalid_params.map((p) => [p.name, p.in]),
        [['text', 'body']],
      );

      const missing = await fetch(`${url}/notes/${note.id + 1}`);
      assert.equal(missing.status, 404);
      assert.match(missing.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(((await missing.json()) as { title: string }).title, 'No such note');
    } finally {
      await server.close();
    }
  } finally {
    if (before === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = before;
    rmSync(dir, { recursive: true, force: true });
  }
});
