/** Discovery and loading from disk: nested and hidden directories, order, singletons across files. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { discoverManifestFiles } from '../../src/manifest/discover.js';
import { loadServiceModel } from '../../src/steps/index.js';

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-manifest-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const respond = (path: string) => `endpoint "GET ${path}" {\n  pipeline {\n    respond {\n      body = "${path}"\n    }\n  }\n}\n`;

test('every *.hcl under the directory, recursively and sorted; hidden directories and other files skipped', async (t) => {
  const dir = tree({
    'z.hcl': respond('/z'),
    'a.hcl': respond('/a'),
    'api/v2/users.hcl': respond('/v2/users'),
    'api/b.hcl': respond('/b'),
    '.git/config.hcl': 'not hcl at all {',
    'api/.cache/x.hcl': 'broken {',
    'notes.md': '# not a manifest',
    'api/readme.txt': 'x',
  });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  assert.deepEqual(await discoverManifestFiles(dir), ['a.hcl', 'api/b.hcl', 'api/v2/users.hcl', 'z.hcl']);
  const { model, diagnostics } = await loadServiceModel(dir);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    model!.endpoints.map((e) => e.path),
    ['/a', '/b', '/v2/users', '/z'],
  );
  assert.equal(model!.dir, dir);
  assert.ok(model!.sources.has(join(dir, 'api/v2/users.hcl')));
});

test('blocks of all files merge: a schema, guard and connection declared in one file are used in another', async (t) => {
  const dir = tree({
    'decl/schemas.hcl': 'schema "item" {\n  field "name" {\n    type = string\n  }\n}\n',
    'decl/auth.hcl': 'auth "admin" {\n  type = "basic"\n  username = "u"\n  password = "p"\n}\n',
    'decl/db.hcl': 'connection "postgres" "main" {\n  url = "pglite:"\n}\n',
    'api.hcl': `endpoint "POST /items" {
  auth = [auth.admin]
  request {
    body = schema.item
  }
  pipeline {
    sql "ins" {
      connection = connection.postgres.main
      query = "INSERT INTO items (name) VALUES (@name) RETURNING *"
      args = { name = ctx.request.body.name }
    }
    respond {
      status = 201
      body = steps.ins.row
    }
  }
}
`,
  });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { model, diagnostics } = await loadServiceModel(dir);
  assert.deepEqual(diagnostics, []);
  assert.equal(model!.endpoints[0]!.request.body!.name, 'item');
});

test('server and top-level openapi may appear once across all files', async (t) => {
  const dir = tree({
    'a.hcl': 'server {\n  port = 8081\n}\nopenapi {\n  title = "A"\n}\n' + respond('/x'),
    'b/c.hcl': 'server {\n  port = 8082\n}\n',
    'b/d.hcl': 'openapi {\n  title = "B"\n}\n',
  });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { model, diagnostics } = await loadServiceModel(dir);
  assert.equal(model, undefined);
  assert.deepEqual(
    diagnostics.map((d) => [d.summary, d.subject?.filename, d.subject?.start.line]),
    [
      ['Duplicate server block', join(dir, 'b/c.hcl'), 1],
      ['Duplicate openapi block', join(dir, 'b/d.hcl'), 1],
    ],
  );
});

test('a missing directory or one without manifests is a diagnostic, not an exception', async (t) => {
  const missing = await loadServiceModel('/nonexistent/svc-manifest');
  assert.equal(missing.model, undefined);
  assert.equal(missing.diagnostics[0]!.summary, 'Cannot read manifest directory');
  const dir = tree({ 'readme.md': 'x' });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const empty = await loadServiceModel(dir);
  assert.equal(empty.diagnostics[0]!.summary, 'No manifest files');
});

test('files a manifest points at are read at boot, relative to the declaring file, inside the manifest dir', async (t) => {
  const dir = tree({
    'api/calc.hcl': `endpoint "GET /calc" {
  pipeline {
    starlark "calc" {
      file = "scripts/calc.star"
    }
    respond {
      body = steps.calc.result
    }
  }
}
endpoint "GET /page" {
  openapi {
    template_file = "page.html"
  }
}
endpoint "GET /missing" {
  openapi {
    template_file = "nope.html"
  }
}
`,
    'api/scripts/calc.star': 'def execute(ctx):\n    return 42\n',
    'page.html': '<h1>{{ .Title }}</h1>',
  });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { diagnostics } = await loadServiceModel(dir);
  assert.deepEqual(
    diagnostics.map((d) => [d.summary, d.subject?.start.line]),
    [['Cannot read file', 18]],
  );
  // Without the bad endpoint the model holds the file contents.
  writeFileSync(join(dir, 'nope.html'), 'x');
  const { model } = await loadServiceModel(dir);
  const calc = model!.endpoints[0]!;
  assert.equal(calc.kind === 'pipeline' && calc.steps[0]!.kind === 'starlark' && calc.steps[0]!.source, 'def execute(ctx):\n    return 42\n');
  const page = model!.endpoints[1]!;
  assert.equal(page.kind === 'docs' && page.docs.kind === 'template' && page.docs.inline, '<h1>{{ .Title }}</h1>');
});

test('unreadable manifest files are diagnostics, not exceptions: dangling symlinks, directories named *.hcl, non-UTF-8 text', async (t) => {
  const { symlinkSync } = await import('node:fs');
  const dir = tree({ 'a.hcl': respond('/a'), 'real/x.txt': '' });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling.hcl'));
  symlinkSync(join(dir, 'real'), join(dir, 'dir.hcl'));
  writeFileSync(join(dir, 'latin1.hcl'), Buffer.from([0x23, 0x20, 0xe9, 0x0a]));
  const r = await loadServiceModel(dir);
  assert.equal(r.model, undefined);
  assert.deepEqual(
    r.diagnostics.map((d) => [d.summary, d.detail!.slice(dir.length + 1)]),
    [
      ['Cannot read manifest file', 'dangling.hcl: ENOENT.'],
      ['Cannot read manifest file', 'dir.hcl is a directory, not a regular file.'],
      ['Invalid file encoding', 'latin1.hcl is not UTF-8 text; manifest files are UTF-8.'],
    ],
  );
});
