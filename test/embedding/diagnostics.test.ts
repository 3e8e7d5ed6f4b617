/**
 * A custom step kind in a manifest is checked like a built-in one: unknown attribute (with
 * did-you-mean), missing required attribute, a constant of the wrong type, an output it does not
 * offer, each at its file, line and column with a stable code; `defineStep` and `loadService`
 * refuse a definition that is wrong or takes a built-in kind's name; `graph()` draws the step.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defineStep, loadService, type ManifestDiagnostic } from '../../src/index.js';
import { tempManifest } from './helpers.js';

const geocode = defineStep({
  name: 'geocode',
  attributes: { city: { type: 'string', required: true }, limit: { type: 'int' } },
  outputs: ['lat', 'lon'],
  run: ({ city }) => ({ lat: city.length, lon: 0 }),
});

function endpoint(step: string, body = 'steps.place.lat'): string {
  return `endpoint "GET /x/{city}" {
  pipeline {
${step}
    respond {
      body = ${body}
    }
  }
}
`;
}

async function diagnosticsOf(hcl: string): Promise<{ errors: ManifestDiagnostic[]; file: string; report: string }> {
  const m = tempManifest(hcl);
  try {
    const loaded = await loadService(m.dir, { steps: [geocode] });
    assert.equal(loaded.ok, false);
    assert.equal(loaded.service, undefined);
    return { errors: loaded.diagnostics.filter((d) => d.severity === 'error'), file: m.file, report: loaded.report };
  } finally {
    m.remove();
  }
}

test('a valid manifest with a custom step loads, and its graph draws the step by its kind', async () => {
  const m = tempManifest(endpoint('    geocode "place" {\n      city  = ctx.request.path.city\n      limit = 3\n    }'));
  try {
    const loaded = await loadService(m.dir, { steps: [geocode] });
    assert.deepEqual(loaded.diagnostics, []);
    assert.equal(loaded.report, '');
    assert.deepEqual(loaded.service!.endpoints, ['GET /x/{city}']);
    const dot = loaded.service!.graph();
    assert.match(dot, /digraph/);
    assert.match(dot, /geocode/);
    assert.match(dot, /place/);
  } finally {
    m.remove();
  }
});

test('without the step kind, its block is an unsupported block type', async () => {
  const m = tempManifest(endpoint('    geocode "place" {\n      city = "x"\n    }'));
  try {
    const loaded = await loadService(m.dir);
    assert.equal(loaded.ok, false);
    assert.ok(loaded.diagnostics.some((d) => d.summary === 'Unsupported block type' && d.line === 3));
  } finally {
    m.remove();
  }
});

test('an unknown attribute is reported at its line and column, with a did-you-mean', async () => {
  const { errors, file } = await diagnosticsOf(endpoint('    geocode "place" {\n      city = "x"\n      limt = 3\n    }'));
  const d = errors.find((e) => e.summary === 'Unsupported argument');
  assert.ok(d, JSON.stringify(errors));
  assert.equal(d.code, 'SVC_MANIFEST_UNSUPPORTED_ARGUMENT');
  assert.deepEqual([d.file, d.line, d.column], [file, 5, 7]);
  assert.equal(d.suggestion, 'limit');
});

test('a missing required attribute is reported on the block', async () => {
  const { errors, file, report } = await diagnosticsOf(endpoint('    geocode "place" {\n      limit = 3\n    }'));
  const d = errors.find((e) => e.summary === 'Missing required argument');
  assert.ok(d, JSON.stringify(errors));
  assert.equal(d.code, 'SVC_MANIFEST_MISSING_ARGUMENT');
  assert.deepEqual([d.file, d.line], [file, 3]);
  assert.match(d.detail ?? '', /city/);
  // The report is svc check's text: the manifest's line quoted under the summary.
  assert.match(report, /Missing required argument/);
  assert.match(report, /geocode "place"/);
});

test('a constant of the wrong type is reported at the value', async () => {
  const { errors, file } = await diagnosticsOf(endpoint('    geocode "place" {\n      city  = "x"\n      limit = "three"\n    }'));
  const d = errors.find((e) => e.summary === 'Incorrect attribute value type');
  assert.ok(d, JSON.stringify(errors));
  assert.equal(d.code, 'SVC_MANIFEST_WRONG_TYPE');
  assert.deepEqual([d.file, d.line, d.column], [file, 5, 15]);
  assert.match(d.detail ?? '', /whole number/);
});

test('outputs given with their schemas are checked by name, like a list', async () => {
  const typed = defineStep({ name: 'geocode', outputs: { lat: { type: 'number' }, lon: { type: 'number' } }, run: () => ({ lat: 1, lon: 2 }) });
  const m = tempManifest(endpoint('    geocode "place" {}', 'steps.place.latitude'));
  try {
    const loaded = await loadService(m.dir, { steps: [typed] });
    assert.equal(loaded.diagnostics[0]?.detail, 'geocode "place" has no output "latitude"; its outputs are lat, lon.');
  } finally {
    m.remove();
  }
});

test('an output the step does not offer is reported where it is read', async () => {
  const { errors, file } = await diagnosticsOf(endpoint('    geocode "place" {\n      city = "x"\n    }', 'steps.place.latitude'));
  const d = errors.find((e) => e.line === 7);
  assert.ok(d, JSON.stringify(errors));
  assert.equal(d.file, file);
  assert.equal(d.code, 'SVC_EXPR_UNSUPPORTED_ATTRIBUTE');
  assert.equal(d.detail, 'geocode "place" has no output "latitude"; its outputs are lat, lon.');
});

test('an attribute reading a step declared later is refused, as for built-in steps', async () => {
  const { errors } = await diagnosticsOf(
    endpoint('    geocode "place" {\n      city = steps.later.lat\n    }\n    geocode "later" {\n      city = "x"\n    }'),
  );
  assert.ok(
    errors.some((e) => e.line === 4),
    JSON.stringify(errors),
  );
});

/** A step whose own check reports with its own codes: a city it does not know, a limit below 1. */
const checked = defineStep({
  name: 'geocode',
  attributes: { city: { type: 'string', required: true }, limit: { type: 'int' } },
  codes: [
    {
      code: 'SVC_STEP_GEOCODE_UNKNOWN_CITY',
      summary: 'Unknown city',
      description: 'A warning: a geocode step whose city, known at boot, is not in the table.',
    },
    { code: 'SVC_STEP_GEOCODE_INVALID_LIMIT', summary: 'Invalid geocode limit', description: 'A geocode step whose limit, known at boot, is below 1.' },
  ],
  check({ city, limit }, report) {
    if (city !== undefined && city !== 'paris') report.warning('Unknown city', { attribute: 'city', detail: `"${city}" is not in the table.` });
    if (limit !== undefined && limit < 1) report.error('Invalid geocode limit', { detail: `limit is ${limit}; at least 1.` });
  },
  run: ({ city }) => ({ lat: city.length, lon: 0 }),
});

test("a step's own check reports with its own codes, at the attribute or the block, on constants only", async () => {
  const load = async (step: string) => {
    const m = tempManifest(endpoint(step));
    try {
      return await loadService(m.dir, { steps: [checked] });
    } finally {
      m.remove();
    }
  };
  const warned = await load('    geocode "place" {\n      city = "atlantis"\n    }');
  assert.equal(warned.ok, true);
  assert.deepEqual(
    warned.diagnostics.map((d) => [d.severity, d.code, d.summary, d.line, d.column, d.detail]),
    [['warning', 'SVC_STEP_GEOCODE_UNKNOWN_CITY', 'Unknown city', 4, 14, '"atlantis" is not in the table.']],
  );
  const refused = await load('    geocode "place" {\n      city  = "paris"\n      limit = 2 - 2\n    }');
  assert.equal(refused.ok, false);
  assert.deepEqual(
    refused.diagnostics.map((d) => [d.severity, d.code, d.line, d.column]),
    [['error', 'SVC_STEP_GEOCODE_INVALID_LIMIT', 3, 13]],
  );
  // A value known per request only is not the check's: nothing is reported.
  const computed = await load('    geocode "place" {\n      city  = ctx.request.path.city\n      limit = 0 + length(ctx.request.path.city)\n    }');
  assert.deepEqual(computed.diagnostics, []);
});

test("a check reporting a summary none of its codes has is the program's mistake, named", async () => {
  const sloppy = defineStep({
    name: 'geocode',
    attributes: { city: { type: 'string' } },
    codes: [{ code: 'SVC_STEP_GEOCODE_UNKNOWN_CITY', summary: 'Unknown city', description: 'A city not in the table.' }],
    check: (_, report) => report.error('Unknown town'),
    run: () => ({}),
  });
  const m = tempManifest(endpoint('    geocode "place" {\n      city = "x"\n    }'));
  try {
    await assert.rejects(
      loadService(m.dir, { steps: [sloppy] }),
      /step "geocode": check reported "Unknown town", which is not the summary of one of its codes/,
    );
  } finally {
    m.remove();
  }
});

test('defineStep refuses a code outside SVC_STEP_<NAME>_, a summary with a full stop, a code given twice, a check without codes', () => {
  const run = () => ({});
  const code = (c: string, summary = 'Bad thing') => ({ code: c, summary, description: 'A bad thing.' });
  assert.throws(() => defineStep({ name: 'geo', codes: [code('SVC_STEP_BAD')], run }), /a code is SVC_STEP_GEO_<WHAT>/);
  assert.throws(() => defineStep({ name: 'geo', codes: [code('SVC_STEP_GEO_bad')], run }), /a code is SVC_STEP_GEO_<WHAT>/);
  assert.throws(() => defineStep({ name: 'geo', codes: [code('ACME_GEO_BAD')], run }), /a code is SVC_STEP_GEO_<WHAT>/);
  assert.throws(() => defineStep({ name: 'geo', codes: [code('SVC_STEP_GEO_BAD', 'A bad thing.')], run }), /without a full stop/);
  assert.throws(() => defineStep({ name: 'geo', codes: [{ code: 'SVC_STEP_GEO_BAD', summary: 'Bad', description: '' }], run }), /needs a description/);
  assert.throws(() => defineStep({ name: 'geo', codes: [code('SVC_STEP_GEO_BAD'), code('SVC_STEP_GEO_BAD', 'Other')], run }), /given to two codes/);
  assert.throws(() => defineStep({ name: 'geo', codes: [code('SVC_STEP_GEO_A'), code('SVC_STEP_GEO_B')], run }), /"Bad thing" is given to two codes/);
  assert.throws(() => defineStep({ name: 'geo', check: () => {}, run }), /declare them in codes/);
  assert.equal(defineStep({ name: 'geo_x', codes: [code('SVC_STEP_GEO_X_BAD_2')], run }).codes[0]!.code, 'SVC_STEP_GEO_X_BAD_2');
});

test("loadService refuses a custom step's code that svc or another kind has", async () => {
  const run = () => ({});
  const listen = defineStep({ name: 'listen', codes: [{ code: 'SVC_STEP_LISTEN_UNSUPPORTED', summary: 'Nope', description: 'A clash.' }], run });
  await assert.rejects(loadService('.', { steps: [listen] }), /step kind "listen": code SVC_STEP_LISTEN_UNSUPPORTED is already the built-in "sql" step's/);
  const a = defineStep({ name: 'a', codes: [{ code: 'SVC_STEP_A_B_X', summary: 'X', description: 'An x.' }], run });
  const ab = defineStep({ name: 'a_b', codes: [{ code: 'SVC_STEP_A_B_X', summary: 'X', description: 'An x.' }], run });
  await assert.rejects(loadService('.', { steps: [a, ab] }), /step kind "a_b": code SVC_STEP_A_B_X is already the custom "a" step's/);
});

test('defineStep refuses a bad name, a reserved or malformed attribute, a bad type, a missing run', () => {
  const run = () => ({});
  assert.throws(() => defineStep({ name: 'Geo-code', run }), /lowercase letters/);
  assert.throws(() => defineStep({ name: 'geo', attributes: { timeout: {} }, run }), /svc's own/);
  assert.throws(() => defineStep({ name: 'geo', attributes: { 'a-b': {} }, run }), /not an identifier/);
  assert.throws(() => defineStep({ name: 'geo', attributes: { a: { type: 'text' as 'string' } }, run }), /types are/);
  assert.throws(() => defineStep({ name: 'geo', run: undefined as unknown as typeof run }), /run must be a function/);
  assert.throws(() => defineStep({ name: 'geo', outputs: { 'a b': {} }, run }), /output names must be identifiers/);
  assert.throws(
    () => defineStep({ name: 'geo', outputs: { a: 'string' as unknown as Record<string, unknown> }, run }),
    /schema of output "a" is not an object/,
  );
  assert.throws(() => defineStep({ name: 'geo', items: { type: 'integer' }, run }), /streaming step's items/);
});

test("loadService refuses a step kind named like a built-in kind, svc's blocks or another custom kind", async () => {
  const run = () => ({});
  await assert.rejects(loadService('.', { steps: [defineStep({ name: 'sql', run })] }), /built-in "sql" step/);
  await assert.rejects(loadService('.', { steps: [defineStep({ name: 'kv', run })] }), /built-in "redis" step/);
  await assert.rejects(loadService('.', { steps: [defineStep({ name: 'request', run })] }), /svc's "request" block/);
  await assert.rejects(loadService('.', { steps: [geocode, geocode] }), /another custom step/);
});
