/**
 * A manifest-sized input: 100 endpoints in the shape the product uses (blocks with labels,
 * heredoc SQL, templates with directives, for-expressions, splats). Checks the tree, and reports
 * the parse time as test diagnostics (not asserted: timings on a shared machine are noise).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFile, type Block } from '../../src/hcl/index.js';

function manifest(endpoints: number): string {
  const out: string[] = [];
  for (let i = 0; i < endpoints; i++) {
    out.push(`# endpoint ${i}
endpoint "GET /items/${i}/{id}" {
  description = "Fetch item ${i} by id, with \\"quotes\\" and \\u00e9"
  auth        = [auth.bearer, auth.api_key]
  request {
    path {
      id = { type = "integer", minimum = 1 }
    }
    query {
      limit  = { type = "integer", default = 20, maximum = 100 }
      cursor = { type = "string", required = false }
    }
  }
  pipeline {
    sql "item" {
      connection = connection.postgres.main
      query      = <<-SQL
        SELECT id, name, price
          FROM items
         WHERE id = $1 AND owner = $2
         LIMIT \${request.query.limit}
      SQL
      params = [request.path.id, request.auth.sub]
    }
    respond {
      when   = length(steps.item.rows) == 0
      status = 404
      body   = { error = "not found", id = request.path.id }
    }
    respond {
      status = 200
      body = {
        item  = steps.item.rows[0]
        names = [for r in steps.item.rows : upper(r.name) if r.price > 10 * 2]
        total = sum(steps.item.rows[*].price...)
        label = "Item %{ if steps.item.rows[0].price > 100 }expensive%{ else }cheap%{ endif } #$\${i}"
      }
    }
  }
}
`);
  }
  return out.join('\n');
}

test('a 100-endpoint manifest parses without diagnostics, in source order', (t) => {
  const src = manifest(100);
  const t0 = performance.now();
  const r = parseFile(src, 'api.hcl');
  const cold = performance.now() - t0;
  assert.deepEqual(r.diagnostics, []);
  const blocks = r.file.body.items as Block[];
  assert.equal(blocks.length, 100);
  assert.deepEqual(blocks[42]!.labels, ['GET /items/42/{id}']);
  const pipeline = blocks[42]!.body.items.find((b) => b.kind === 'Block' && b.type === 'pipeline') as Block;
  assert.deepEqual(
    pipeline.body.items.map((b) => (b as Block).type),
    ['sql', 'respond', 'respond'],
  );
  const sql = (pipeline.body.items[0] as Block).body.items[1]!;
  assert.equal(
    sql.kind === 'Attribute' && sql.expr.kind === 'Template' && sql.expr.parts[0]!.kind === 'TemplateLiteral' && sql.expr.parts[0]!.value,
    'SELECT id, name, price\n  FROM items\n WHERE id = $1 AND owner = $2\n LIMIT ',
  );
  const t1 = performance.now();
  for (let i = 0; i < 20; i++) parseFile(src, 'api.hcl');
  const warm = (performance.now() - t1) / 20;
  t.diagnostic(`${src.length} chars, ${src.split('\n').length} lines: first parse ${cold.toFixed(1)} ms, warm ${warm.toFixed(1)} ms`);
});
