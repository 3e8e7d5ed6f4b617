/**
 * The diagnostic code catalogue (src/diag/codes.ts, and each built-in step kind's own `codes`,
 * src/steps/<kind>/codes.ts) held to the source and to the fixtures:
 * - the catalogue is well formed (unique codes and summaries across the central list and the kinds',
 *   known areas, one-line descriptions; a kind's codes are SVC_STEP_ ones);
 * - every diagnostic that any fixture under test/ (and any example) produces has a catalogued code;
 * - every summary literal passed by the reporting calls of the folders that report is catalogued (in a
 *   kind's folder, centrally or in that kind's list), so a new diagnostic that no fixture exercises
 *   yet is caught too;
 * - every entry is still produced somewhere in src/ (no entry outlives its diagnostic);
 * - docs/diagnostics.md is the catalogue as generated here. After changing the catalogue, rewrite it
 *   with `SVC_UPDATE_DOCS=1 node --import tsx --test test/diag/codes.test.ts`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import {
  codeIn,
  codeOf,
  DIAGNOSTIC_AREAS,
  DIAGNOSTIC_CODES,
  DiagnosticCatalogue,
  diagnosticToJSON,
  summaryPattern,
  type Diagnostic,
  type DiagnosticCode,
} from '../../src/diag/index.js';
import { parseFile } from '../../src/hcl/index.js';
import { buildServiceModel, compileService, loadServiceModel, STEP_KINDS } from '../../src/steps/index.js';
import { svc } from '../cli/helpers.js';
import { codeTableLines, KIND_PAGES } from './code-table.js';
import { ROOT as root } from '../paths.js';

function walk(dir: string, keep: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path, keep));
    else if (keep(path)) out.push(path);
  }
  return out;
}

/** The built-in kinds' own codes, by kind, and every code: the central ones, then the kinds'. */
const KIND_CODES: ReadonlyMap<string, readonly DiagnosticCode[]> = new Map(STEP_KINDS.filter((k) => k.codes !== undefined).map((k) => [k.kind, k.codes!]));
const ALL_CODES: readonly DiagnosticCode[] = [...DIAGNOSTIC_CODES, ...[...KIND_CODES.values()].flat()];
const catalogued = new Set(ALL_CODES.map((c) => c.code));

/** `{name}` placeholders as `{}`, and `${...}` interpolations likewise: the shape a pattern entry and its template share. */
const shapeOfPattern = (summary: string): string => summary.replace(/\{[^}]*\}/g, '{}');
const shapeOfTemplate = (template: string): string => template.replace(/\$\{[^`]*?\}/g, '{}');
const patternShapesOf = (codes: readonly DiagnosticCode[]): Set<string> =>
  new Set(codes.filter((c) => summaryPattern(c.summary)).map((c) => shapeOfPattern(c.summary)));

// ---------------------------------------------------------------------------------- the catalogue

test('codes are unique, SVC_<AREA>_<WHAT> with a known area, and each describes itself in one sentence', () => {
  assert.ok(DIAGNOSTIC_CODES.length > 100);
  assert.equal(catalogued.size, ALL_CODES.length, 'a code appears twice');
  const summaries = ALL_CODES.map((c) => c.summary);
  assert.equal(new Set(summaries).size, summaries.length, 'a summary appears twice');
  for (const { code, summary, description } of ALL_CODES) {
    assert.match(code, /^SVC_[A-Z]+(_[A-Z0-9]+)+$/, code);
    assert.ok(Object.hasOwn(DIAGNOSTIC_AREAS, code.split('_')[1]!), `${code}: unknown area`);
    assert.ok(summary.length > 0 && !summary.endsWith('.'), `${code}: a summary is a title, without a full stop`);
    assert.match(description, /^[^\n]+\.$/, `${code}: one line, ending with a full stop`);
  }
});

test("a built-in kind's codes are in the STEP area, and each kind that reports problems of its own lists them", () => {
  for (const [kind, codes] of KIND_CODES) for (const { code } of codes) assert.match(code, /^SVC_STEP_/, `${kind}: ${code}`);
  assert.deepEqual([...KIND_CODES.keys()].sort(), ['http', 'parallel', 'respond', 'sql', 'starlark', 'stream', 'transaction']);
});

test('the catalogue is grouped by area in the order of DIAGNOSTIC_AREAS', () => {
  const areas = Object.keys(DIAGNOSTIC_AREAS);
  const order = DIAGNOSTIC_CODES.map((c) => areas.indexOf(c.code.split('_')[1]!));
  assert.deepEqual(
    order,
    [...order].sort((a, b) => a - b),
  );
  for (const area of areas)
    assert.ok(
      DIAGNOSTIC_CODES.some((c) => c.code.startsWith(`SVC_${area}_`)),
      `area ${area} has no code`,
    );
});

test('codeOf: an exact summary, a pattern, an explicit code, and nothing for an unknown summary', () => {
  assert.equal(codeOf({ summary: 'Unsupported argument' }), 'SVC_MANIFEST_UNSUPPORTED_ARGUMENT');
  assert.equal(codeOf({ summary: 'Duplicate server block' }), 'SVC_MANIFEST_DUPLICATE_BLOCK');
  assert.equal(codeOf({ summary: 'Missing method and path for endpoint' }), 'SVC_MANIFEST_MISSING_LABEL');
  assert.equal(codeOf({ summary: 'Undeclared query parameter' }), 'SVC_REF_UNDECLARED_REQUEST_PARAMETER');
  // Exact summaries win over patterns; a closed list of alternatives admits nothing else.
  assert.equal(codeOf({ summary: 'Undeclared request body' }), 'SVC_REF_UNDECLARED_REQUEST_BODY');
  assert.equal(codeOf({ summary: 'Undeclared cookie' }), undefined);
  // A kind's own codes are its list's, matched the same way (codeIn), not the central catalogue's.
  const starlark = KIND_CODES.get('starlark')!;
  assert.equal(codeIn(starlark, 'Starlark: the program failed while loading'), 'SVC_STEP_STARLARK_LOAD_FAILED');
  assert.equal(codeIn(starlark, 'Starlark: undefined: x\nmore'), 'SVC_STEP_STARLARK_COMPILE_ERROR');
  assert.equal(codeIn(starlark, 'Unsupported argument'), undefined);
  assert.equal(codeOf({ summary: 'Starlark: undefined: x' }), undefined);
  // A one-word placeholder does not swallow a sentence.
  assert.equal(codeOf({ summary: 'Duplicate two words block' }), undefined);
  assert.equal(codeOf({ summary: 'Unsupported argument', code: 'SVC_X_Y' }), 'SVC_X_Y');
  assert.equal(codeOf({ summary: 'No such summary' }), undefined);
});

test('--diagnostics=json carries the code (check on stdout, serve on stderr); the text rendering is unchanged', async (t) => {
  const d: Diagnostic = { severity: 'error', summary: 'Unsupported argument' };
  assert.deepEqual(diagnosticToJSON(d), { severity: 'error', code: 'SVC_MANIFEST_UNSUPPORTED_ARGUMENT', summary: 'Unsupported argument' });
  assert.deepEqual(diagnosticToJSON({ severity: 'warning', summary: 'No such summary' }), { severity: 'warning', summary: 'No such summary' });

  // A manifest that decodes and is refused when compiled: a template naming an unknown variable.
  const dir = mkdtempSync(join(tmpdir(), 'svc-codes-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'api.hcl'), 'endpoint "GET /page" {\n  openapi {\n    template = "<h1>{{ .Titel }}</h1>"\n  }\n}\n');
  const check = await svc(['check', '-c', dir, '--diagnostics=json']);
  const checked = JSON.parse(check.stdout) as { diagnostics: { code: string; summary: string }[] };
  assert.deepEqual(
    checked.diagnostics.map((x) => x.code),
    ['SVC_DOCS_UNKNOWN_TEMPLATE_VARIABLE'],
  );
  for (const x of checked.diagnostics) assert.equal(x.code, codeOf(x), x.summary);
  const serve = await svc(['serve', '-c', dir, '--diagnostics=json']);
  assert.equal(serve.code, 1);
  assert.deepEqual(
    (JSON.parse(serve.stderr) as { diagnostics: { code: string }[] }).diagnostics.map((x) => x.code),
    checked.diagnostics.map((x) => x.code),
  );
  const text = await svc(['check', '-c', dir]);
  assert.doesNotMatch(text.stderr, /SVC_/);
});

test("a kind's code is set where it reports: in its block, in a block it holds, and when it is compiled", () => {
  const at = (ds: readonly Diagnostic[]) => ds.map((d) => [d.code, d.subject?.start.line]);
  const decoded = buildServiceModel([
    {
      filename: 'a.hcl',
      source: `connection "postgres" "db" {
  url = "pglite:"
}
endpoint "GET /a" {
  pipeline {
    transaction "t" {
      connection = connection.postgres.db
      sql "s" {
        query  = "SELECT 1"
        stream = true
      }
      sql "q" {
        query = "SELECT @x"
      }
      parallel {
        sql "p" {
          query = "SELECT 2"
        }
      }
    }
    respond {
      body = 1
    }
  }
}
`,
    },
  ]);
  // The transaction reports the parallel it holds; the sql steps it holds report with their own codes.
  assert.deepEqual(at(decoded.diagnostics), [
    ['SVC_STEP_STREAM_IN_TRANSACTION', 10],
    ['SVC_STEP_MISSING_QUERY', 13],
    ['SVC_STEP_PARALLEL_IN_TRANSACTION', 15],
  ]);
  const built = buildServiceModel([{ filename: 'b.hcl', source: 'endpoint "GET /b" {\n  pipeline {\n    respond {\n      status = 101\n    }\n  }\n}\n' }]);
  assert.deepEqual(built.diagnostics, []);
  assert.deepEqual(at(compileService(built.model!).diagnostics), [['SVC_STEP_INVALID_RESPOND_STATUS', 3]]);
});

// ---------------------------------------------------------------------------------- the fixtures

/** Every diagnostic that parsing, checking and compiling `files` produces. */
function diagnosticsOf(files: { filename: string; source: string }[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const f of files) out.push(...parseFile(f.source, f.filename).diagnostics);
  const built = buildServiceModel(files);
  out.push(...built.diagnostics);
  if (built.model) out.push(...compileService(built.model).diagnostics);
  return out;
}

function uncoded(diags: Iterable<Diagnostic>, where: string): string[] {
  const out: string[] = [];
  for (const d of diags) {
    const code = codeOf(d);
    if (code === undefined || !catalogued.has(code)) {
      out.push(
        `${where}${d.subject ? `:${d.subject.start.line}` : ''}: ${d.severity} "${d.summary}" has ${code ? `the uncatalogued code ${code}` : 'no code'}`,
      );
    }
  }
  return out;
}

test('every diagnostic of every fixture under test/, and of every example, has a catalogued code', async () => {
  const problems: string[] = [];
  let count = 0;
  const hclFiles = walk(join(root, 'test'), (p) => p.endsWith('.hcl'));
  assert.ok(hclFiles.length >= 20, `only ${hclFiles.length} fixtures found`);
  for (const path of hclFiles) {
    const filename = relative(root, path);
    const diags = diagnosticsOf([{ filename, source: readFileSync(path, 'utf8') }]);
    count += diags.length;
    problems.push(...uncoded(diags, filename));
  }
  // Directories that form one manifest (good fixtures, examples), loaded as `svc check` loads them.
  const manifests = [
    ...new Set(hclFiles.filter((p) => /[\\/]good[\\/]/.test(p)).map((p) => dirname(p))),
    ...readdirSync(join(root, 'examples')).map((n) => join(root, 'examples', n)),
  ].filter((p) => statSync(p).isDirectory());
  for (const dir of manifests) {
    const loaded = await loadServiceModel(dir);
    const diags = [...loaded.diagnostics, ...(loaded.model ? compileService(loaded.model).diagnostics : [])];
    count += diags.length;
    problems.push(...uncoded(diags, relative(root, dir)));
  }
  assert.ok(count > 200, `only ${count} diagnostics: are the fixtures still found?`);
  assert.deepEqual(problems, [], 'add an entry to src/diag/codes.ts for each');
});

// ---------------------------------------------------------------------------------- the source

const LIT = String.raw`'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|` + '`(?:[^`\\\\]|\\\\.)*`';

/** The text of a quoted literal; one whose escapes JSON does not share (`\x41`) is kept raw, as no summary has them. */
function unquote(lit: string): string {
  const json = lit.startsWith("'") ? `"${lit.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"')}"` : lit;
  try {
    return JSON.parse(json) as string;
  } catch {
    return lit.slice(1, -1);
  }
}

/** Whole-line comments go: an apostrophe or a backtick in prose would derail the literal scan. */
function withoutCommentLines(text: string): string {
  return text.replace(/^\s*(?:\/\/|\/\*|\*).*$/gm, '');
}

function sources(dirs: readonly string[], skip: (path: string) => boolean = () => false): { path: string; text: string }[] {
  return dirs
    .flatMap((d) => walk(join(root, d), (p) => p.endsWith('.ts') && !skip(p)))
    .map((path) => ({ path: relative(root, path), text: withoutCommentLines(readFileSync(path, 'utf8')) }));
}

/** The codes a file may report with: the central ones, and in a kind's folder (src/steps/<kind>/) that kind's. */
function codesFor(path: string): readonly DiagnosticCode[] {
  const kind = /^src[\\/]steps[\\/]([^\\/]+)[\\/]/.exec(path)?.[1];
  return [...DIAGNOSTIC_CODES, ...((kind !== undefined && KIND_CODES.get(kind)) || [])];
}

test('every summary literal that a reporting call passes is catalogued', () => {
  // The folders that report diagnostics, and the shapes their reporting calls take: Diagnostics.error,
  // DecodeScope.error/warning, the parser's p.error, the step compilers' env.error(spec, ...), local
  // err(...) helpers, evaluation errors, and object literals with a summary (a ternary counts twice).
  // Summaries passed through other helpers are covered by the fixtures test above. A kind's own
  // summary counts only in its folder: that is where its scope and compiler give it its code.
  const files = sources(['src/hcl', 'src/expr', 'src/manifest', 'src/model', 'src/steps', 'src/schema'], (p) => p.includes(join('src', 'expr', 'functions')));
  const opener = String.raw`(?:\bsummary:|\.(?:error|warning)\(|\benv\.error\(\s*[\w.]+\s*,|\berr\(|\bnew \w*EvalError\()`;
  const call = new RegExp(String.raw`${opener}\s*(?:[^,;?]{0,80}?\?\s*(${LIT})\s*:\s*)?(${LIT})`, 'g');
  const problems: string[] = [];
  let found = 0;
  for (const { path, text } of files) {
    const codes = codesFor(path);
    const catalogue = new DiagnosticCatalogue(codes);
    const patternShapes = patternShapesOf(codes);
    for (const m of text.matchAll(call)) {
      for (const lit of [m[1], m[2]]) {
        if (lit === undefined) continue;
        found++;
        const ok = lit.startsWith('`')
          ? patternShapes.has(shapeOfTemplate(lit.slice(1, -1))) || catalogue.codeFor(lit.slice(1, -1)) !== undefined
          : catalogue.codeFor(unquote(lit)) !== undefined;
        if (!ok) problems.push(`${path}: ${lit}`);
      }
    }
  }
  assert.ok(found > 150, `only ${found} summaries found: has the shape of the reporting calls changed?`);
  assert.deepEqual(problems, [], "add an entry to src/diag/codes.ts (or the kind's codes.ts) for each (a `${...}` summary needs a {placeholder} pattern)");
});

test('every catalogue entry is still produced somewhere in src/', () => {
  // The lists themselves do not count: the central one (src/diag) and the kinds' (src/steps/<kind>/codes.ts).
  const files = sources(['src'], (p) => p.includes(join('src', 'diag') + '/') || /[\\/]src[\\/]steps[\\/][^\\/]+[\\/]codes\.ts$/.test(p)).map((f) => f.text);
  const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Plain text searches rather than a tokenizer: a regex literal holding a quote cannot derail them.
  const quotedIn = (summary: string): boolean =>
    files.some((t) => t.includes(`'${summary.replace(/'/g, "\\'")}'`) || t.includes(`"${summary.replace(/"/g, '\\"')}"`) || t.includes(`\`${summary}\``));
  const templateIn = (pattern: string): boolean => {
    const re = new RegExp(
      '`' +
        pattern
          .split(/(\{[^}]*\})/)
          .map((part) => (part.startsWith('{') ? '\\$\\{[^`]*?\\}' : escapeRegExp(part)))
          .join('') +
        '`',
    );
    return files.some((t) => re.test(t));
  };
  const literalMatching = (re: RegExp): boolean =>
    files.some((t) => [...t.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"/g)].some((m) => re.test(m[1] ?? m[2]!)));
  const orphans = ALL_CODES.filter(({ summary }) => {
    const re = summaryPattern(summary);
    return re ? !templateIn(summary) && !literalMatching(re) : !quotedIn(summary);
  }).map((c) => `${c.code}: ${c.summary}`);
  assert.deepEqual(orphans, [], 'no source produces these summaries: update the entry (a reworded summary keeps its code) or remove it');
});

// ---------------------------------------------------------------------------------- the doc

function catalogueMarkdown(): string {
  const out = [
    '# Diagnostic codes',
    '',
    "<!-- Generated from src/diag/codes.ts and the step kinds' codes (src/steps/<kind>/codes.ts) by test/diag/codes.test.ts; do not edit by hand. -->",
    '',
    'Every problem `svc` finds in a manifest is a diagnostic: a severity, a summary, a detail, the place it',
    'points at, and a stable code. `--diagnostics=json` prints the code as `code`; the HCL-style text output',
    'shows the summary. Build on the code, not on the summary: summaries may be reworded, codes are not.',
    '',
    'A code is `SVC_<AREA>_<WHAT>`. It never changes meaning and is never reused; a code that is no longer',
    'produced leaves this list. In a summary, `<name>` stands for a part that depends on the manifest',
    '(a block type, a step kind, a message from the Starlark compiler).',
    '',
  ];
  for (const [area, meaning] of Object.entries(DIAGNOSTIC_AREAS)) {
    out.push(`## ${area}`, '', meaning, '', ...codeTableLines(DIAGNOSTIC_CODES.filter((x) => x.code.split('_')[1] === area)), '');
    if (area !== 'STEP') continue;
    // Each kind declares its own codes (its definition's `codes`): one table per kind, in STEP_KINDS order.
    for (const [kind, codes] of KIND_CODES) {
      out.push(`### \`${kind}\` steps`, '', `Declared by the \`${kind}\` kind (src/steps/${kind}/codes.ts); see also [its page](${KIND_PAGES[kind]}).`, '');
      out.push(...codeTableLines(codes), '');
    }
    out.push(
      'A step kind of an embedding program declares its own codes, `SVC_STEP_<KIND>_<WHAT>` ([Embedding](embedding.md)): they are',
      "that program's, and not listed here.",
      '',
    );
  }
  return out.join('\n');
}

test('docs/diagnostics.md lists the catalogue as it is', () => {
  const path = join(root, 'docs', 'diagnostics.md');
  const want = catalogueMarkdown();
  if (process.env.SVC_UPDATE_DOCS === '1') writeFileSync(path, want);
  let have = '';
  try {
    have = readFileSync(path, 'utf8');
  } catch {
    // missing: reported below as a difference
  }
  assert.equal(have, want, 'docs/diagnostics.md is stale: SVC_UPDATE_DOCS=1 node --import tsx --test test/diag/codes.test.ts');
});
