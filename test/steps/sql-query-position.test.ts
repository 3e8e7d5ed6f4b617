/**
 * PostgreSQL's error position (1-based characters of the statement it parsed, `$n` for `@name`) back
 * to the manifest (src/steps/sql/query-position.ts): through a flush heredoc's removed indentation, a
 * plain heredoc, a quoted string's escapes and `$${`, and `@name`s whose `$n` is shorter or longer.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFile, type Attribute } from '../../src/hcl/index.js';
import { positionalOrigins, sqlParameters } from '../../src/steps/sql/parameters.js';
import { statementPosition } from '../../src/steps/sql/query-position.js';

/** Where the first `marker` of the query (attribute `q` of `source`) is found through the server's position. */
function locate(source: string, marker: string): [number, number] {
  const { file, diagnostics } = parseFile(source, 'm.hcl');
  assert.deepEqual(diagnostics, []);
  const attr = file.body.items.find((i): i is Attribute => i.kind === 'Attribute' && i.name === 'q')!;
  // The query's value, as the manifest decodes it: the template's one literal.
  const expr = attr.expr as unknown as { parts: { value: string }[] };
  const query = expr.parts.map((p) => p.value).join('');
  const parameters = sqlParameters(query);
  const { text } = positionalOrigins(query, parameters);
  const index = text.indexOf(marker);
  assert.ok(index >= 0, `${marker} in ${text}`);
  const position = [...text.slice(0, index)].length + 1;
  const at = statementPosition(query, parameters, position, { range: attr.expr.range, text: source })!;
  return [at.line, at.column];
}

test('a flush heredoc: lines indented deeper than the least keep their columns', () => {
  const source = ['q = <<-SQL', '    SELECT a,', '           bad', '      FROM t', '  SQL', ''].join('\n');
  assert.deepEqual(locate(source, 'bad'), [3, 12]);
  assert.deepEqual(locate(source, 'FROM'), [4, 7]);
});

test('a plain heredoc keeps every character', () => {
  const source = ['q = <<SQL', '\tSELECT bad', 'SQL', ''].join('\n');
  assert.deepEqual(locate(source, 'bad'), [2, 9]);
});

test('a quoted string: escapes are one character of the query and several of the line', () => {
  const source = 'q = "SELECT \\"a\\",\\n  bad, \'$${x}\' AS t, worse"\n';
  // One line of source: a column is the index in it, plus one.
  assert.deepEqual(locate(source, 'bad'), [1, source.indexOf('bad') + 1]);
  assert.deepEqual(locate(source, 'worse'), [1, source.indexOf('worse') + 1]);
});

test('@name becomes $n: places after it are counted in the translated text', () => {
  const names = Array.from({ length: 10 }, (_, i) => `@p${i}`).join(', ');
  // `@p0` is `$1` (shorter), the tenth, `@p9`, is `$10`; `bad` comes after both.
  const source = `q = "SELECT ${names}, @longer_name, bad"\n`;
  const column = source.indexOf('bad') + 1;
  assert.deepEqual(locate(source, 'bad'), [1, column]);
});

test('a position inside a $n points at its @name', () => {
  const source = 'q = "SELECT x FROM t WHERE a = @value"\n';
  assert.deepEqual(locate(source, '$1'), [1, source.indexOf('@value') + 1]);
});
