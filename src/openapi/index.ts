/**
 * src/openapi: the OpenAPI 3.1 document compiled from the service model (SPEC.md §4.5), and its text
 * in JSON or YAML. Pure: no I/O. `svc openapi` prints it; spec endpoints serve it (src/http).
 */
export { compileOpenApi, type CompileOpenApiOptions } from './compile.js';
export { columnSchema, type SqlColumn, type SqlColumns } from './sql-types.js';
export { serializeDocument, type DocumentFormat } from './serialize.js';
// Every step of a pipeline, nested ones included (cli/contract-check finds a step by name with it).
export { allSteps } from './step-views.js';
export type { OpenApiDocument } from './document-types.js';
