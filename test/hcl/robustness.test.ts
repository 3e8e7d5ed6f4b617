/**
 * Robustness: seeded random edits of a valid manifest must never make the parser throw or hang,
 * and every diagnostic must point inside the input. Also the lexical diagnostics and their caps.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseExpression, parseFile, parseTemplate } from '../../src/hcl/index.js';
import { summaries } from './helpers.js';

const BASE = `server {
  port = env("PORT", 8080)
}
endpoint "GET /items/{id}" {
  description = "Fetch \\"one\\" item: \${request.path.id}"
  pipeline {
    sql "item" {
      query = <<-SQL
        SELECT * FROM items WHERE id = $1
      SQL
      params = [request.path.id]
    }
    respond {
      status = length(steps.item.rows) == 0 ? 404 : 200
      body   = { item = steps.item.rows[0], all = steps.item.rows[*].id, n = -1.5e3 }
      text   = "%{ for r in steps.item.rows ~}\${r.name}, %{ endfor ~}"
      keys   = { for k, v in request.query : k => v... if v != null }
    }
  }
}
`;

test('random edits never throw, and diagnostics stay inside the input', () => {
  let seed = 20261121;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const alphabet = '{}[]()"$%~<>-=!&|.,:?*/#\n\\\'`;é👩 aZ09\r';
  for (let i = 0; i < 400; i++) {
    let s = BASE;
    for (let e = 1 + rnd(4); e > 0; e--) {
      const at = rnd(s.length);
      const op = rnd(3);
      if (op === 0) s = s.slice(0, at) + s.slice(at + 1 + rnd(5));
      else if (op === 1) s = s.slice(0, at) + alphabet[rnd(alphabet.length)]! + s.slice(at);
      else s = s.slice(0, at) + s.slice(at, at + rnd(40)) + s.slice(at);
    }
    const size = Buffer.byteLength(s);
    for (const parse of [parseFile, parseExpression, parseTemplate]) {
      const r = parse(s, 'f.hcl');
      for (const d of r.diagnostics) {
        assert.ok(d.subject, `${d.summary} has a subject`);
        assert.ok(d.subject.start.byte <= d.subject.end.byte && d.subject.end.byte <= size, JSON.stringify(d));
      }
    }
  }
});

test('lexical errors: hints for operators from other languages, capped repeats', () => {
  const r = parseExpression('a & b', 't.hcl');
  assert.equal(r.diagnostics[0]!.summary, 'Unsupported operator');
  assert.match(r.diagnostics[0]!.detail!, /Did you mean boolean AND \("&&"\)\?/);
  // at most four bitwise-operator errors, one semicolon error, one per pair of backticks
  const f = parseFile('a = 1 | 2 | 3 | 4 | 5 | 6\nb = 1;\nc = 2;\nd = `x`\n', 't.hcl');
  const s = summaries(f.diagnostics);
  assert.equal(s.filter((x) => x === 'Unsupported operator').length, 4);
  assert.equal(f.diagnostics.filter((d) => d.detail?.includes('";"')).length, 1);
  assert.equal(f.diagnostics.filter((d) => d.detail?.includes('"`"')).length, 1);
  const curly = parseExpression('“x”', 't.hcl');
  assert.match(curly.diagnostics[0]!.detail!, /Curly quotes/);
});

test('lexical errors come first, then parse errors in source order', () => {
  const f = parseFile('a = 1 2\nb = 3;\n', 't.hcl');
  assert.deepEqual(summaries(f.diagnostics), ['Invalid character', 'Missing newline after argument', 'Missing newline after argument']);
});

test('deep nesting is a diagnostic, not a stack overflow (parser, compiler, evaluator)', async () => {
  const { compileExpression } = await import('../../src/expr/index.js');
  const n = 20000;
  const deep: Record<string, string> = {
    parens: '('.repeat(n) + '1' + ')'.repeat(n),
    tuples: '['.repeat(n) + ']'.repeat(n),
    objects: '{a='.repeat(n) + '1' + '}'.repeat(n),
    unary: '-'.repeat(n) + '1',
    templates: '"${'.repeat(n) + '1' + '}"'.repeat(n),
    operators: Array(n).fill('1').join(' + '),
    conditionals: 'true ? '.repeat(n) + '1' + ' : 2'.repeat(n),
    indexes: 'a' + '[b]'.repeat(n),
    splats: 'a' + '[*]'.repeat(n),
    calls: 'f('.repeat(n) + ')'.repeat(n),
    directives: '"' + '%{if true}'.repeat(n) + 'x' + '%{endif}'.repeat(n) + '"',
  };
  for (const [what, src] of Object.entries(deep)) {
    const r = parseExpression(src, 'deep.hcl');
    assert.deepEqual(summaries(r.diagnostics), ['Nesting too deep'], what);
    assert.doesNotThrow(() => compileExpression(r.expr, { roots: new Set(['a', 'b']) }), what);
  }
  const blocks = parseFile('a {\n'.repeat(n) + '}\n'.repeat(n) + 'b = 1 +\n', 'deep.hcl');
  assert.deepEqual(summaries(blocks.diagnostics), ['Nesting too deep', 'Invalid expression'], 'blocks, and the file goes on');
  // Nesting that real configurations use is untouched.
  const ok = parseExpression('['.repeat(100) + '1' + ']'.repeat(100), 'ok.hcl');
  assert.deepEqual(ok.diagnostics, []);
  assert.equal(compileExpression(ok.expr).compiled.constant, true);
});
