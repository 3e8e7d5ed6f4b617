// Starlark `load()` of files inside the manifest directory: scripts share code. Paths are relative to
// the loading file; modules are read at boot with the manifest's file rules, so a worker thread runs
// them too; what cannot be loaded is a boot diagnostic at the load statement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileService, loadServiceModel } from '../../src/steps/index.js';
import { serveManifestDir } from '../http/helpers.js';

/** A manifest directory from `files` (path -> text), removed after `body`. */
async function withDir(files: Record<string, string>, body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-starlark-load-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const LIB = {
  // lib/text.star loads lib/chars.star by a path relative to itself
  'lib/text.star': 'load("chars.star", "is_word")\n\ndef slugify(s):\n    return "".join([c if is_word(c) else "-" for c in s.lower().elems()]).strip("-")\n',
  'lib/chars.star': 'WORD = "abcdefghijklmnopqrstuvwxyz0123456789"\n\ndef is_word(c):\n    return c in WORD\n\ndef _private():\n    return 1\n',
};

test('an inline program and a .star file load the same module; nested loads are relative to the loading file', async () => {
  await withDir(
    {
      ...LIB,
      'scripts/title.star': 'load("../lib/text.star", "slugify")\n\ndef execute(ctx):\n    return {"slug": slugify(ctx.request.query["t"])}\n',
      'api.hcl': `endpoint "GET /inline" {
  pipeline {
    starlark "s" {
      source = <<-EOT
        load("lib/text.star", "slugify")

        def execute(ctx):
            return slugify(ctx.request.query["t"])
      EOT
    }
    respond { body = { slug = steps.s.result } }
  }
}

endpoint "GET /file" {
  pipeline {
    starlark "s" {
      file = "scripts/title.star"
    }
    respond { body = steps.s.result }
  }
}
`,
    },
    async (dir) => {
      const svc = await serveManifestDir(dir);
      try {
        for (const path of ['/inline', '/file']) {
          const res = await svc.app.inject({ method: 'GET', url: `${path}?t=Hello%20World!` });
          assert.equal(res.statusCode, 200, res.body);
          assert.deepEqual(res.json(), { slug: 'hello-world' });
        }
      } finally {
        await svc.close();
      }
    },
  );
});

test('a program that runs on a worker thread (past its event-loop slice) has its modules there too', async () => {
  await withDir(
    {
      ...LIB,
      'api.hcl': `endpoint "GET /long" {
  pipeline {
    starlark "s" {
      source = <<-EOT
        load("lib/text.star", "slugify")

        def execute(ctx):
            n = 0
            for i in range(200000):
                n += i % 7
            return {"slug": slugify("Long Run"), "n": n}
      EOT
    }
    respond { body = steps.s.result }
  }
}
`,
    },
    async (dir) => {
      const svc = await serveManifestDir(dir);
      try {
        const res = await svc.app.inject({ method: 'GET', url: '/long' });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().slug, 'long-run');
      } finally {
        await svc.close();
      }
    },
  );
});

/** The boot errors of the directory's manifest: summary and detail. */
async function bootErrors(dir: string): Promise<{ summary: string; detail: string; line: number | undefined; file: string | undefined }[]> {
  const loaded = await loadServiceModel(dir);
  assert.deepEqual(
    loaded.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  return compileService(loaded.model!).diagnostics.map((d) => ({
    summary: d.summary,
    detail: d.detail ?? '',
    line: d.subject?.start.line,
    file: d.subject?.filename,
  }));
}

const loading = (module: string, name = 'f'): string =>
  `endpoint "GET /t" {\n  pipeline {\n    starlark "s" {\n      source = <<-EOT\n        load("${module}", "${name}")\n\n        def execute(ctx):\n            return 1\n      EOT\n    }\n    respond { body = steps.s.result }\n  }\n}\n`;

test('what cannot be loaded is a boot diagnostic at the load statement that says why', async () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ 'api.hcl': loading('missing.star') }, /cannot load missing\.star: cannot read file: "[^"]*missing\.star" \([^)]*\): ENOENT/],
    [{ 'api.hcl': loading('../outside.star') }, /cannot load \.\.\/outside\.star: file outside the manifest directory/],
    [{ 'api.hcl': loading('lib/chars.star', 'nope'), ...LIB }, /load: name nope not found in module lib\/chars\.star/],
    [{ 'api.hcl': loading('a.star'), 'a.star': 'load("b.star", "g")\nf = 1\n', 'b.star': 'load("a.star", "f")\ng = 2\n' }, /cycle in load graph/],
    [{ 'api.hcl': loading('bad.star'), 'bad.star': 'f = 1 +* 2\n' }, /cannot load bad\.star: .*bad\.star:1:/],
  ];
  for (const [files, detail] of cases) {
    await withDir(files, async (dir) => {
      const errors = await bootErrors(dir);
      assert.equal(errors.length, 1, JSON.stringify(errors));
      assert.equal(errors[0]!.summary, 'Starlark: the program failed while loading');
      assert.match(errors[0]!.detail, detail);
      // the load statement's line in the manifest
      assert.deepEqual([errors[0]!.file, errors[0]!.line], [join(dir, 'api.hcl'), 5]);
    });
  }
});

test('a private name (leading underscore) cannot be loaded', async () => {
  await withDir({ 'api.hcl': loading('lib/chars.star', '_private'), ...LIB }, async (dir) => {
    const errors = await bootErrors(dir);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.summary, /load: names with leading underscores are not exported: _private/);
  });
});
