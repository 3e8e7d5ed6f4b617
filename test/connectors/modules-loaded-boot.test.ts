/**
 * What a booted service loads is what its manifest uses (bench/users README, "Cold start and
 * footprint"): no route has a Fastify schema, so Fastify's own Ajv and serializer compilers are never
 * loaded (src/http/route-schemas.ts); csv-stringify is loaded by the first csv stream step, yaml by
 * the first YAML spec endpoint (src/openapi/serialize.ts). A service with a JSON body, an ndjson
 * stream and a JSON spec endpoint loads none of them, and then one that declares a csv stream and a
 * YAML spec loads those two. Its own file, so that no other test of the process has loaded them
 * before.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { buildServer, createLogger, docsSites } from '../../src/http/index.js';
import { buildServiceModel, compileService } from '../../src/steps/index.js';
import { packageLoaded } from '../http/metrics-helpers.js';

async function serve(source: string) {
  const built = buildServiceModel([{ filename: 'main.hcl', source }]);
  assert.ok(built.model, built.diagnostics.map((d) => d.summary).join('; '));
  const service = compileService(built.model);
  assert.deepEqual(
    service.diagnostics.map((d) => `${d.summary}: ${d.detail}`),
    [],
  );
  return buildServer({
    endpoints: service.endpoints,
    docs: docsSites(service.docs, built.model),
    bodyLimit: 1024 * 1024,
    requestTimeoutMs: 5000,
    logger: createLogger({ stream: { write: () => {} } }),
  });
}

const FASTIFY_COMPILERS = ['@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', '@fastify/merge-json-schemas', 'json-schema-ref-resolver'];

function loaded(fragment: string): string[] {
  return Object.keys(createRequire(import.meta.url).cache).filter((path) => path.includes(fragment));
}

test('a service loads neither the features it does not declare nor Fastify schema compilers; declaring csv and YAML loads those', async () => {
  const app = await serve(`
openapi {
  title   = "t"
  version = "1"
}

endpoint "POST /echo" {
  request {
    body {
      field "name" {
        type       = string
        required   = true
        min_length = 2
      }
    }
  }
  pipeline {
    respond {
      body = { name = ctx.request.body.name }
    }
  }
}

endpoint "GET /rows" {
  pipeline {
    stream "ndjson" {
      source = [{ a = 1 }, { a = 2 }]
    }
  }
}

endpoint "GET /openapi.json" {
  openapi {
    format = "json"
  }
}
`);
  try {
    const ok = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'ada' } });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(ok.json(), { name: 'ada' });
    const invalid = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'a' } });
    assert.equal(invalid.statusCode, 422, invalid.body);
    const rows = await app.inject({ method: 'GET', url: '/rows' });
    assert.equal(rows.body, '{"a":1}\n{"a":2}\n');
    const spec = await app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(spec.statusCode, 200);
    assert.equal(spec.json().info.title, 't');
  } finally {
    await app.close();
  }
  for (const name of [...FASTIFY_COMPILERS, 'csv-stringify', 'yaml']) assert.equal(packageLoaded(name), false, `${name} was loaded`);
  // svc's own Ajv (2020-12) is there; the draft-07 and JTD builds only Fastify's compilers load are not.
  assert.equal(loaded('/node_modules/ajv/dist/2020.js').length, 1, "svc's Ajv was not loaded");
  assert.deepEqual(loaded('/node_modules/ajv/dist/jtd.js'), []);
  assert.deepEqual(loaded('/node_modules/ajv/dist/ajv.js'), []);

  const second = await serve(`
openapi {
  title   = "t"
  version = "1"
}

endpoint "GET /rows.csv" {
  pipeline {
    stream "csv" {
      source = [{ a = 1, b = "x,y" }]
    }
  }
}

endpoint "GET /openapi.yaml" {
  openapi {
    format = "yaml"
  }
}
`);
  try {
    const csv = await second.inject({ method: 'GET', url: '/rows.csv' });
    assert.equal(csv.body, 'a,b\r\n1,"x,y"\r\n');
    const yaml = await second.inject({ method: 'GET', url: '/openapi.yaml' });
    assert.equal(yaml.statusCode, 200);
    assert.match(yaml.body, /^openapi: 3\.1\.\d+\n/);
  } finally {
    await second.close();
  }
  // The check itself sees a package once it is loaded.
  assert.equal(packageLoaded('csv-stringify'), true);
  assert.equal(packageLoaded('yaml'), true);
  for (const name of FASTIFY_COMPILERS) assert.equal(packageLoaded(name), false, `${name} was loaded`);
});
