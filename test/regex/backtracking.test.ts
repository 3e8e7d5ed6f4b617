/**
 * Issue 15, class 2: regular expressions backtrack. The fixture (fixtures/regex/api.hcl) holds the
 * reproductions: `pattern`s with nested, alternated and adjacent quantifiers, a `replace()` applied to
 * request data, and one folded to a constant at boot. On JavaScript's backtracking engine each takes
 * a time exponential (or polynomial) in the length of a near-miss value: forty `a` and a `!` against
 * `^(a+)+$` is 2^40 steps. Run on RE2 (src/regex), every answer comes at once; a pattern RE2 cannot
 * run is a boot diagnostic instead.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildServiceModel } from '../../src/steps/index.js';
import { svc } from '../cli/helpers.js';
import { serveManifest } from '../http/helpers.js';
import { sourceDir } from '../paths.js';

const FIXTURE = join(sourceDir(import.meta.url), 'fixtures', 'regex');
const EVIL_CONSTANT = `${'a'.repeat(40)}!`;
/** Far more than any backtracking engine survives: a fast answer proves linear matching. */
const LONG_MISS = `${'a'.repeat(5000)}!`;
/** Generous for a loaded CI machine; a backtracking engine would need years. */
const FAST_MS = 2000;

async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await f();
  return { value, ms: performance.now() - start };
}

test('svc check of the fixture ends at once: the replace() folded at boot runs on the linear engine', async () => {
  const { value, ms } = await timed(() => svc(['check', '-c', FIXTURE]));
  assert.equal(value.code, 0, value.stdout + value.stderr);
  assert.doesNotMatch(value.stdout + value.stderr, /warning/i, 'no heuristic warning is left');
  assert.ok(ms < FAST_MS * 2, `svc check took ${ms} ms`);
});

test('a near-miss value against each backtracking pattern is a fast 422 naming the pattern it failed', async (t) => {
  const service = await serveManifest(readFileSync(join(FIXTURE, 'api.hcl'), 'utf8'));
  t.after(() => service.close());
  const miss = { nested: LONG_MISS, alternation: LONG_MISS, adjacent: `${' '.repeat(2000)}${'a'.repeat(2000)}!` };
  const { value: res, ms } = await timed(() => service.app.inject({ method: 'GET', url: '/names', query: miss }));
  assert.ok(ms < FAST_MS, `the 422 took ${ms} ms`);
  assert.equal(res.statusCode, 422);
  // Each field keeps its own pattern (ajv caches compiled patterns by their text).
  assert.deepEqual(
    (res.json() as { invalid_params: { name: string; reason: string }[] }).invalid_params.map((p) => [p.name, p.reason]),
    [
      ['nested', 'must match pattern ^(a+)+$'],
      ['alternation', 'must match pattern ^(a|aa)+$'],
      ['adjacent', 'must match pattern ^\\s*a*\\s*a*\\s*$'],
    ],
  );
  const hit = await service.app.inject({ method: 'GET', url: '/names', query: { nested: 'aaaa', alternation: 'aaa', adjacent: ' aa a ' } });
  assert.equal(hit.statusCode, 200, hit.body);
});

test('replace() with a regex over a long request value answers at once, and its constant form was folded at boot', async (t) => {
  const service = await serveManifest(readFileSync(join(FIXTURE, 'api.hcl'), 'utf8'));
  t.after(() => service.close());
  const text = `${'a'.repeat(100_000)}!`;
  const { value: res, ms } = await timed(() => service.app.inject({ method: 'POST', url: '/clean', payload: { text } }));
  assert.ok(ms < FAST_MS, `replace() took ${ms} ms`);
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json(), { cleaned: text, constant: EVIL_CONSTANT });
  const hit = await service.app.inject({ method: 'POST', url: '/clean', payload: { text: 'xaaaa' } });
  assert.deepEqual(hit.json(), { cleaned: 'x-', constant: EVIL_CONSTANT });
});

const manifest = (pattern: string, replacement = '"/x/"') => `endpoint "GET /x" {
  request {
    query {
      field "q" {
        type    = string
        pattern = ${JSON.stringify(pattern)}
      }
    }
  }
  pipeline {
    respond {
      status = 200
      body   = { r = replace("abc", ${replacement}, "") }
    }
  }
}
`;

function errors(source: string): string[] {
  const r = buildServiceModel([{ filename: 'api.hcl', source }]);
  return r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.subject?.start.line}: ${d.summary}: ${d.detail}`);
}

test('a pattern RE2 cannot run is a boot error at the pattern, with the reason', () => {
  assert.deepEqual(errors(manifest('^[a-z]+$')), []);
  const cases: [string, RegExp][] = [
    ['^(?=.*\\d)[a-z0-9]+$', /a lookahead assertion `\(\?=` cannot be matched in linear time/],
    ['^(?<!x)a$', /a lookbehind assertion `\(\?<!` cannot be matched in linear time/],
    ['^(a)\\1$', /a back-reference `\\1` cannot be matched in linear time/],
    ['^(?<w>a)\\k<w>$', /a back-reference `\\k<w>` cannot be matched in linear time/],
    ['^a{1001}$', /RE2 refuses it: invalid repeat count: `\{1001\}` \(a repeat count is at most 1000\)/],
    ['^\\p{scx=Greek}$', /the Unicode property `\\p\{scx=Greek\}` \(script extensions\)/],
    ['^(a$', /Unterminated group/],
  ];
  for (const [pattern, reason] of cases) {
    const found = errors(manifest(pattern));
    assert.equal(found.length, 1, `${pattern}: ${found.join('\n')}`);
    assert.match(found[0]!, /^6: Invalid value: Invalid regular expression: /, pattern);
    assert.match(found[0]!, reason, pattern);
  }
});

test('a replace() regex RE2 cannot run is a boot error at the argument', () => {
  const found = errors(manifest('^a$', '"/(?=a)b/"'));
  assert.equal(found.length, 1, found.join('\n'));
  assert.match(found[0]!, /^13: Invalid function argument: .*a lookahead assertion `\(\?=` cannot be matched in linear time/);
});

test('a very long pattern is not quoted whole in the diagnostic', () => {
  const long = `(${'a'.repeat(100_000)}`;
  const found = errors(manifest(long));
  assert.equal(found.length, 1);
  assert.ok(found[0]!.length < 1000, `the diagnostic is ${found[0]!.length} characters long`);
});
