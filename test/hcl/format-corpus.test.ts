/**
 * formatHcl never changes what a file means, on every HCL file at hand: each *.hcl of examples/ and
 * test/, and each file of the HCL specsuite (its .hcl, .t and .hcldec files are all HCL native
 * syntax; read in place from ../shared/conformance, skipped when absent). For each file that parses:
 *
 * - the formatted text parses to the same tree, positions aside;
 * - it differs from the input only in whitespace, and holds the same comments, character for character;
 * - formatting it again changes nothing;
 * - seeded random changes of the input's layout (spaces and tabs between tokens, extra blank lines)
 *   format to the same text.
 *
 * A file that does not parse is refused with exactly the parser's diagnostics. Last, seeded random
 * line breaks, spaces and comments dropped into a file that uses every construct: each variant that
 * still parses formats (the formatter's own check passes) and formatting it again changes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { formatHcl, parseFile } from '../../src/hcl/index.js';
import { scan } from '../../src/hcl/scanner.js';
import { T } from '../../src/hcl/tokens.js';
import { shape } from './helpers.js';
import { ROOT as root } from '../paths.js';

const specsuite = join(root, '../shared/conformance/hcl/specsuite/tests');

function walk(dir: string, keep: (name: string) => boolean, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, keep, out);
    else if (keep(name)) out.push(full);
  }
  return out;
}

const projectFiles = [...walk(join(root, 'examples'), (n) => n.endsWith('.hcl')), ...walk(join(root, 'test'), (n) => n.endsWith('.hcl'))];
const specsuiteFiles = existsSync(specsuite) ? walk(specsuite, (n) => /\.(hcl|t|hcldec)$/.test(n)) : [];

/** The comments of a file, found with the scanner (which leaves them between its tokens). */
function comments(src: string): string[] {
  const out: string[] = [];
  let at = src.startsWith('\ufeff') ? 1 : 0;
  for (const t of scan(src, 'x.hcl')) {
    const gap = src.slice(at, t.start);
    for (const m of gap.matchAll(/\/\*[\s\S]*?\*\/|(?:#|\/\/).*/g)) out.push(m[0]);
    const text = src.slice(t.start, t.end);
    if (t.type === T.Newline && /^(#|\/\/)/.test(text)) out.push(text.replace(/\r?\n$/, ''));
    at = t.end;
  }
  return out;
}

const noSpace = (s: string): string => s.replace(/[ \t\r\n]/g, '');

/** Rewrites the layout of `src` without changing what it says: the spaces between tokens and the blank lines. */
function relayout(src: string, seed: number): string {
  let state = seed;
  const rnd = (n: number): number => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
  const spaces = (): string => ['', ' ', '  ', '\t', ' \t '][rnd(5)]!;
  const bom = src.startsWith('\ufeff');
  let out = bom ? '\ufeff' : '';
  let at = bom ? 1 : 0;
  // Blank lines are kept (one of a run), so more are added only where there is one already, and at the edges.
  if (rnd(2) === 0) out += '\n  \n';
  let previous: number = T.Newline;
  for (const t of scan(src, 'x.hcl')) {
    const gap = src.slice(at, t.start);
    // Spaces and tabs between tokens are layout; anything else there (a comment) is kept.
    out += /^[ \t]+$/.test(gap) ? spaces() || ' ' : gap;
    const text = src.slice(t.start, t.end);
    out += text;
    if (t.type === T.Newline && text === '\n' && previous === T.Newline && rnd(2) === 0) out += spaces() + '\n';
    if (t.type === T.Newline) out += spaces();
    previous = t.type;
    at = t.end;
  }
  if (rnd(2) === 0) out += '\n\t\n';
  return out;
}

function checkFile(path: string, name: string): void {
  const src = readFileSync(path, 'utf8');
  const parsed = parseFile(src, name);
  const r = formatHcl(src, name);
  if (parsed.diagnostics.length > 0) {
    assert.equal(r.ok, false, `${name} does not parse but was formatted`);
    assert.deepEqual(r.ok ? [] : r.diagnostics, parsed.diagnostics);
    return;
  }
  assert.ok(r.ok, `${name} parses but was not formatted`);
  const again = parseFile(r.text, name);
  assert.deepEqual(again.diagnostics, [], `${name}: the formatted text does not parse`);
  assert.deepEqual(shape(again.file.body), shape(parsed.file.body), `${name}: the tree changed`);
  assert.equal(noSpace(r.text), noSpace(src), `${name}: more than whitespace changed`);
  assert.deepEqual(comments(r.text), comments(src), `${name}: a comment changed`);
  const twice = formatHcl(r.text, name);
  assert.ok(twice.ok && twice.text === r.text, `${name}: formatting twice changes the text`);
  for (let seed = 1; seed <= 5; seed++) {
    const moved = relayout(src, seed * 7919);
    const m = formatHcl(moved, name);
    assert.ok(m.ok, `${name}: relayout ${seed} does not parse`);
    assert.equal(m.text, r.text, `${name}: relayout ${seed} formats differently`);
  }
}

test('there are files to format', () => {
  assert.ok(projectFiles.length >= 30, `${projectFiles.length} files under examples/ and test/`);
});

test('project files: formatting keeps the tree, the comments and nothing but whitespace changes', () => {
  for (const path of projectFiles) checkFile(path, relative(root, path));
});

test('HCL specsuite files: the same', { skip: specsuiteFiles.length === 0 ? `no specsuite at ${specsuite}` : false }, () => {
  assert.ok(specsuiteFiles.length >= 40);
  for (const path of specsuiteFiles) checkFile(path, relative(specsuite, path));
});

test('some files are refused, so the refusal is exercised too', () => {
  const refused = projectFiles.filter((p) => !formatHcl(readFileSync(p, 'utf8'), p).ok);
  assert.ok(refused.length >= 5, `${refused.length} files refused`);
});

const EVERY_CONSTRUCT = `server {
  port = env("PORT", 8080) # port
}
/* block
   comment */ endpoint "GET /items/{id}" {
  description = "Fetch \\"one\\" item: \${request.path.id}" // desc
  pipeline {
    sql "item" {
      query = <<-SQL
        SELECT * FROM items WHERE id = $1 \${ foo(1,
   2) } and %{ if x }y%{ endif }
      SQL
      params = [request.path.id, a.0 .1, b.0.c, -1, - 2, 3 - -4, !true]
    }
    respond {
      status = length(steps.item.rows) == 0 ? 404 : 200
      body   = { item = steps.item.rows[0], all = steps.item.rows[*].id, n = -1.5e3, "q" : 1, (k) = 2 }
      text   = "%{ for r in steps.item.rows ~}\${r.name}, %{ endfor ~}"
      keys   = { for k, v in request.query : k => v... if v != null }
      list   = [for x in [1, 2] : x * 2 if x > 1]
      obj    = {
        a = 1 # one
        bbb = [
          1, /* inline */ 2,
        ]
        c = <<EOT
  raw \${ {a = 1} }
EOT
      }
      call = provider::ns::fn(a, b...)
    }
  }
}
a {} # trailing
b "x" "y" { c = 1 }
`;

test('random line breaks, spaces and comments: every variant that parses formats, and formats once for all', () => {
  assert.deepEqual(parseFile(EVERY_CONSTRUCT, 'x.hcl').diagnostics, []);
  let state = 20261124;
  const rnd = (n: number): number => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
  const pieces = ['\n', ' ', '\t', '\n\n', ' /* c */ ', '# x\n', '// y\n', '\r\n'];
  let formatted = 0;
  for (let i = 0; i < 400; i++) {
    let s = EVERY_CONSTRUCT;
    for (let e = 1 + rnd(6); e > 0; e--) {
      const at = rnd(s.length + 1);
      const spaces = /^[ \t]+/.exec(s.slice(at));
      s = rnd(4) === 0 ? s.slice(0, at) + s.slice(at + (spaces?.[0].length ?? 0)) : s.slice(0, at) + pieces[rnd(pieces.length)] + s.slice(at);
    }
    if (parseFile(s, 'x.hcl').diagnostics.length > 0) continue;
    const r = formatHcl(s, 'x.hcl');
    assert.ok(r.ok);
    const again = formatHcl(r.text, 'x.hcl');
    assert.ok(again.ok && again.text === r.text, `variant ${i} formats differently the second time:\n${s}`);
    formatted++;
  }
  assert.ok(formatted > 300, `${formatted} variants parsed`);
});
