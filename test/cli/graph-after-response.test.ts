/** `svc graph` draws an endpoint's after_response block after its pipeline, as a graph of its own. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { svc } from './helpers.js';

const MANIFEST = `
endpoint "POST /orders/{id}" {
  pipeline {
    respond {
      status = 202
      body   = { id = ctx.request.path.id }
    }
  }
  after_response {
    http "hook" {
      url    = "http://127.0.0.1:9/hook"
      method = "POST"
      body   = { id = ctx.request.path.id }
    }
    starlark "log" {
      source = <<-EOT
        def execute(ctx):
            return ctx.steps.hook["status"]
      EOT
    }
  }
}
`;

test('svc graph: the pipeline, then "<endpoint> (after response)" with its steps; --endpoint keeps both', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-graph-after-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'main.hcl'), MANIFEST);
  for (const args of [
    ['graph', '-c', dir],
    ['graph', '-c', dir, '--endpoint', 'POST /orders/{id}'],
  ]) {
    const drawn = await svc(args);
    assert.equal(drawn.code, 0, drawn.stderr);
    const pipeline = drawn.stdout.indexOf('POST /orders/{id}"');
    const after = drawn.stdout.indexOf('POST /orders/{id} (after response)');
    assert.ok(pipeline >= 0 && after > pipeline, drawn.stdout);
    assert.match(drawn.stdout.slice(after), /hook/);
    assert.match(drawn.stdout.slice(after), /log/);
  }
});
