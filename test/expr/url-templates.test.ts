/**
 * URL templates compiled by compileUrlExpression (src/expr/url.ts): which part of the URL each value
 * lands in (decided at boot, constants folded into the text), the encoding it gets there, the
 * author's opt-outs, directives, and what the shape reports.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileUrlExpression } from '../../src/expr/index.js';
import { parseExpression } from '../../src/hcl/index.js';

function url(src: string): ReturnType<typeof compileUrlExpression> {
  const { expr, diagnostics } = parseExpression(src, 'test.hcl');
  assert.deepEqual(diagnostics, [], `parse errors in ${src}`);
  const out = compileUrlExpression(expr);
  assert.deepEqual(
    out.diagnostics.map((d) => d.summary),
    [],
    src,
  );
  return out;
}

const NASTY = '../a?b=1&c#d e+%/\\';

describe('compileUrlExpression', () => {
  it('encodes a value as one segment in the path and one value in the query, the literal text as written', () => {
    const { compiled, shape } = url('"http://h:8080/a/${ctx.v}/b?x=${ctx.v}&y=1#${ctx.v}"');
    assert.equal(
      compiled.evaluate({ ctx: { v: NASTY } }),
      'http://h:8080/a/..%2Fa%3Fb%3D1%26c%23d%20e%2B%25%2F%5C/b?x=..%2Fa%3Fb%3D1%26c%23d%20e%2B%25%2F%5C&y=1#..%2Fa%3Fb%3D1%26c%23d%20e%2B%25%2F%5C',
    );
    assert.deepEqual(
      shape.sites.map((s) => [s.place, s.encoding]),
      [
        ['path', 'component'],
        ['query', 'component'],
        ['fragment', 'component'],
      ],
    );
  });

  it('knows the place after a constant folded into the text (env) and after a base computed per request', () => {
    process.env.SVC_TEST_URL_BASE = 'http://h/api?';
    try {
      const folded = url('"${env("SVC_TEST_URL_BASE")}q=${ctx.v}"');
      assert.deepEqual(
        folded.shape.sites.map((s) => s.place),
        ['query'],
      );
    } finally {
      delete process.env.SVC_TEST_URL_BASE;
    }
    const based = url('"${steps.cfg.base}/items/${ctx.v}"');
    assert.deepEqual(
      based.shape.sites.map((s) => [s.place, s.encoding]),
      [
        ['authority', 'none'],
        ['path', 'component'],
      ],
    );
    assert.equal(based.compiled.evaluate({ steps: { cfg: { base: 'http://h/x' } }, ctx: { v: 'a/b' } }), 'http://h/x/items/a%2Fb');
  });

  it('leaves the scheme, host and port as they are (nothing can encode a host)', () => {
    const { compiled, shape } = url('"${ctx.scheme}://${ctx.host}:${ctx.port}/p"');
    assert.deepEqual(
      shape.sites.map((s) => s.place),
      ['authority', 'authority', 'authority'],
    );
    assert.equal(compiled.evaluate({ ctx: { scheme: 'https', host: 'a.b', port: 81 } }), 'https://a.b:81/p');
  });

  it("unencoded(x) and url_encode(x) are the author's encoding, not encoded again", () => {
    const { compiled, shape } = url('"http://h/${unencoded(ctx.p)}?q=${url_encode(ctx.q)}"');
    assert.equal(compiled.evaluate({ ctx: { p: 'a/b', q: 'x y&z' } }), 'http://h/a/b?q=x+y%26z');
    assert.deepEqual(
      shape.sites.map((s) => s.encoding),
      ['author', 'author'],
    );
  });

  it('after a directive, the later part either way: a value is never left unencoded in the path', () => {
    const { compiled, shape } = url('"http://h/p%{ if ctx.q != "" }?q=${ctx.q}%{ endif }&v=${ctx.v}"');
    assert.deepEqual(
      shape.sites.map((s) => s.place),
      ['query', 'query'],
    );
    assert.equal(compiled.evaluate({ ctx: { q: 'a&b', v: '/' } }), 'http://h/p?q=a%26b&v=%2F');
    assert.equal(compiled.evaluate({ ctx: { q: '', v: '/' } }), 'http://h/p&v=%2F');
    const loop = url('"http://h/%{ for s in ctx.segments }${s}/%{ endfor }end"');
    assert.equal(loop.compiled.evaluate({ ctx: { segments: ['a/b', '..', 'c'] } }), 'http://h/a%2Fb/../c/end');
    assert.deepEqual(
      loop.shape.sites.map((s) => s.place),
      ['path'],
    );
  });

  it('a lone surrogate is encoded as U+FFFD instead of throwing', () => {
    assert.equal(url('"http://h/${ctx.v}"').compiled.evaluate({ ctx: { v: 'a\ud800' } }), 'http://h/a%EF%BF%BD');
  });

  it('reports literal dot segments, and whole URLs computed by other expressions', () => {
    assert.equal(url('"http://h/a/./b/../${ctx.v}"').shape.dotSegments.length, 2);
    assert.equal(url('"http://h/a.b/.../${ctx.v}"').shape.dotSegments.length, 0);
    for (const src of ['ctx.u', '"${ctx.u}"', 'format("http://h/%s", ctx.u)']) {
      const { shape } = url(src);
      assert.equal(shape.computed.length, 1, src);
      assert.equal(shape.sites.length, 0, src);
    }
    const branches = url('ctx.c ? "http://a/${ctx.v}" : ctx.u');
    assert.deepEqual([branches.shape.sites.length, branches.shape.computed.length], [1, 1]);
  });

  it('a constant URL is folded whole, with nothing to encode', () => {
    const { compiled, shape } = url('"http://h/a?b=${1 + 1}"');
    assert.equal(compiled.constant, true);
    assert.equal(compiled.value, 'http://h/a?b=2');
    assert.deepEqual(shape.sites, []);
  });
});
