/** Documents of in-memory manifests, for the compiler's unit tests. */
import assert from 'node:assert/strict';
import { compileOpenApi, type OpenApiDocument } from '../../src/openapi/index.js';
import { buildServiceModel } from '../../src/steps/index.js';

/** The document of a one-file manifest; the manifest must build without an error. */
export function documentOf(source: string): OpenApiDocument {
  const built = buildServiceModel([{ filename: 'main.hcl', source }]);
  assert.ok(built.model, built.diagnostics.map((d) => `${d.summary}: ${d.detail ?? ''}`).join('\n'));
  // A round trip through JSON: what the tests read is what is served.
  return JSON.parse(JSON.stringify(compileOpenApi(built.model))) as OpenApiDocument;
}

// biome-ignore lint/suspicious/noExplicitAny: tests walk the document's JSON freely
export type Json = any;

/** The operation of `METHOD path`. */
export function operation(document: OpenApiDocument, method: string, path: string): Json {
  const item = document.paths[path] as Json;
  assert.ok(item, `no path ${path}; paths: ${Object.keys(document.paths).join(', ')}`);
  const op = item[method.toLowerCase()];
  assert.ok(op, `no ${method} ${path}`);
  return op;
}

/** The schema of a response's content, `$ref`s to responses followed. */
export function bodySchema(document: OpenApiDocument, method: string, path: string, status: string, mediaType = 'application/json'): Json {
  let response = operation(document, method, path).responses[status] as Json;
  assert.ok(response, `no ${status} response of ${method} ${path}`);
  if (response.$ref) response = (document.components as Json).responses[String(response.$ref).split('/').pop()!];
  const content = response.content?.[mediaType];
  assert.ok(content, `no ${mediaType} content in ${status} of ${method} ${path}: ${JSON.stringify(response)}`);
  return content.schema;
}
