/**
 * Field declarations: the decoder and src/schema agree on what a field may say (one list of formats,
 * integers within the range the validator accepts), and what src/schema refuses is reported at the
 * offending attribute with the field's own block path.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildServiceModel } from '../../src/steps/index.js';
import { FORMAT_NAMES } from '../../src/schema/index.js';
import { checkCommand } from '../../src/cli/check.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function diags(source: string) {
  const r = buildServiceModel([{ filename: 'f.hcl', source }]);
  return r.diagnostics.map((d) => ({
    at: d.subject ? `${d.subject.start.line}:${d.subject.start.column}` : '',
    summary: d.summary,
    path: d.path?.join(' > ') ?? '',
    detail: d.detail ?? '',
    suggestion: d.suggestion,
  }));
}

const query = (attrs: string) => `endpoint "GET /x" {
  request {
    query {
      field "q" {
        ${attrs.trim().split('\n').join('\n        ')}
      }
    }
  }
  pipeline {
    respond {
      status = 200
    }
  }
}
`;

test('every format src/schema knows is accepted, and only those', () => {
  for (const f of FORMAT_NAMES) assert.deepEqual(diags(query(`type = string\nformat = "${f}"`)), [], f);
  const [d] = diags(query('type = string\nformat = "emial"'));
  assert.equal(d!.summary, 'Invalid value');
  assert.equal(d!.at, '6:18');
  assert.equal(d!.suggestion, 'email');
  assert.ok(d!.detail.includes(FORMAT_NAMES.join(', ')), d!.detail);
});

test('integer enum values and defaults outside ±(2^53-1) are refused at the attribute (the validator never accepts them)', () => {
  const e = diags(query('type = int\nenum = [1, 9007199254740993]'));
  assert.deepEqual(
    e.map((d) => [d.at, d.summary]),
    [['6:16', 'Incorrect attribute value type']],
  );
  assert.match(e[0]!.detail, /whole numbers within/);
  const d = diags(query('type = int\ndefault = 9007199254740993'));
  assert.deepEqual(
    d.map((x) => [x.at, x.summary]),
    [['6:19', 'Incorrect attribute value type']],
  );
  assert.deepEqual(
    diags(query('type = int\nenum = [1, 9007199254740991]\ndefault = -9007199254740991')).filter((x) => x.summary !== 'Default on a required field'),
    [
      {
        at: '7:19',
        summary: 'Invalid field declaration',
        path: 'endpoint "GET /x" > request > query > field "q"',
        detail: "query.q: the default -9007199254740991 does not satisfy the field's own constraints: must be one of: [1, 9007199254740991].",
        suggestion: undefined,
      },
    ],
  );
});

test("src/schema's issues point at the offending attribute, with the field's block path", () => {
  const route = `route "GET /r/{id}" {
  request {
    path "id" {
      type = list(string)
    }
    query "tag" {
      type    = string
      pattern = "^[a-z]+$"
      default = "ABC"
    }
  }
  respond {
    status = 200
  }
}
schema "s" {
  field "toString" {
    type = string
  }
}
`;
  assert.deepEqual(
    diags(route).map((d) => [d.at, d.path]),
    [
      ['4:14', 'route "GET /r/{id}" > request > path "id"'],
      ['9:17', 'route "GET /r/{id}" > request > query "tag"'],
      ['17:9', 'schema "s" > field "toString"'],
    ],
  );
});

test('1e400 (Infinity) is refused as a bound, an enum value or a default of a number field', () => {
  const d = diags(query('type = float\nmin = -1e400\nmax = 1e400\nenum = [1e400]\ndefault = 1e400'));
  assert.deepEqual(
    d.map((x) => [x.at, x.summary]),
    [
      ['6:15', 'Incorrect attribute value type'],
      ['7:15', 'Incorrect attribute value type'],
      ['8:16', 'Incorrect attribute value type'],
      ['9:19', 'Incorrect attribute value type'],
    ],
  );
});

test('an undeclared path parameter with a reserved name is reported at the route label', () => {
  const d = diags('route "GET /a/{constructor}" {\n  respond {\n    status = 200\n  }\n}\n');
  assert.deepEqual(
    d.map((x) => [x.at, x.summary, x.path]),
    [['1:7', 'Invalid field declaration', 'route "GET /a/{constructor}"']],
  );
});

test('a value listed twice in enum is a warning at the enum', () => {
  assert.deepEqual(
    diags(query('type = string\nenum = ["a", "b", "a"]')).map((x) => [x.at, x.summary, x.detail]),
    [['6:16', 'Duplicate enum value', '"a" is listed more than once in "enum".']],
  );
});

test('a default of the wrong type names the type; the safe range is mentioned only for numbers', () => {
  assert.deepEqual(
    diags(query('type = int\ndefault = "20"')).map((x) => x.detail),
    ['Inappropriate value for attribute "default": a value of type integer is required.'],
  );
  assert.deepEqual(
    diags(query('type = int\ndefault = 1.5')).map((x) => x.detail),
    ['Inappropriate value for attribute "default": a value of type integer (integers within ±(2^53-1)) is required.'],
  );
});

test('a pattern runs in linear time: nested quantifiers are accepted as they are, one RE2 cannot run is an error at the pattern', () => {
  const ok = buildServiceModel([{ filename: 'f.hcl', source: query('type = string\npattern = "^(a+)+$"') }]);
  assert.ok(ok.model);
  assert.deepEqual(ok.diagnostics, []);
  const r = buildServiceModel([{ filename: 'f.hcl', source: query('type = string\npattern = "^(?!admin)[a-z]+$"') }]);
  assert.equal(r.model, undefined);
  assert.deepEqual(
    r.diagnostics.map((d) => [d.severity, d.summary, `${d.subject?.start.line}:${d.subject?.start.column}`, d.path?.join(' > ')]),
    [['error', 'Invalid value', '6:19', 'endpoint "GET /x" > request > query > field "q"']],
  );
  assert.match(r.diagnostics[0]!.detail!, /^Invalid regular expression: a lookahead assertion `\(\?!` cannot be matched in linear time/);
});

test('svc check refuses a pattern RE2 cannot run, with the reason', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fields-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'api.hcl'), query('type = string\npattern = "^(a)\\\\1$"'));
  let out = '';
  let err = '';
  const code = await checkCommand(['-c', dir], {
    stdout: { write: (s: string) => void (out += s) },
    stderr: { write: (s: string) => void (err += s) },
    env: process.env,
    cwd: process.cwd(),
  });
  assert.equal(code, 1);
  assert.match(out + err, /Error: Invalid value/);
  assert.match(out + err, /a back-reference `\\1` cannot be matched in linear time/);
});

test('an invalid default is reported at its value, with the reason the 422 would give', () => {
  const e = diags(query('type = string\nmax_length = 2\ndefault = "xyz"'));
  assert.deepEqual(
    e.map((x) => [x.at, x.detail]),
    [['7:19', 'query.q: the default "xyz" does not satisfy the field\'s own constraints: length must be at most 2 characters.']],
  );
});
