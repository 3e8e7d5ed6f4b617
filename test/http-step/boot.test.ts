/** What the http step decides at boot: a streaming step compiles, a bad URL known then is refused, `svc graph` draws it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeOf } from '../../src/diag/index.js';
import { buildServiceModel, compileService } from '../../src/steps/index.js';
import { bootErrors } from './helpers.js';

const endpoint = (step: string): string => `
endpoint "GET /x" {
  pipeline {
    ${step}
    respond {
      body = "ok"
    }
  }
}
`;

test('stream = true compiles: its output `stream` is for a stream step to read', () => {
  assert.deepEqual(bootErrors(endpoint('http "up" {\n  url = "http://127.0.0.1:1/x"\n  stream = true\n}')), []);
});

test('a url known at boot must be an absolute http(s) URL', () => {
  for (const url of ['ftp://example.test/x', 'not a url', '/relative']) {
    const errors = bootErrors(endpoint(`http "up" {\n  url = "${url}"\n}`));
    assert.deepEqual(
      errors.map((d) => [d.summary, codeOf(d)]),
      [['Invalid http step url', 'SVC_STEP_INVALID_HTTP_URL']],
      url,
    );
    assert.equal(errors[0]!.subject?.start.line, 5, 'points at the url');
  }
});

test('a computed url, method, headers and body compile without opening anything', () => {
  const errors = bootErrors(
    endpoint('http "up" {\n  url = "http://127.0.0.1:1/${ctx.request.method}"\n  method = "post"\n  headers = { A = "b" }\n  body = { n = 1 }\n}'),
  );
  assert.deepEqual(errors, []);
});

test('svc graph draws a streaming http step', () => {
  const source = endpoint('http "up" {\n  url = "http://127.0.0.1:1/x"\n  stream = true\n}');
  const built = buildServiceModel([{ filename: 'api.hcl', source }], { dir: '.' });
  const drawn = compileService(built.model!, { forDrawing: true });
  assert.deepEqual(drawn.diagnostics, []);
  assert.equal(drawn.graphs.length, 1);
});
