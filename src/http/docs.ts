/**
 * Documentation endpoints (SPEC.md §4.2, DECISIONS.md §5): what each serves, as files built once at
 * boot. A site is the files of one endpoint, keyed by their path below the endpoint's own (`''` is the
 * endpoint's path itself), all behind the endpoint's guard. A spec endpoint serves the document in
 * JSON or YAML, the very text `svc openapi` prints; a renderer page serves its page and its assets
 * under `assets/` (cached as immutable: their names carry a hash of their bytes); a template serves
 * its page (src/docs builds pages).
 */
import type { CorsModel, ServiceModel } from '../model/index.js';
import { compileOpenApi, serializeDocument, type OpenApiDocument, type SqlColumns } from '../openapi/index.js';
import type { CompiledDocsEndpoint } from '../steps/index.js';
import { docsPageFiles } from '../docs/index.js';
import type { EndpointGuard } from '../auth/index.js';
import { Compressor } from './compress.js';
import { REVALIDATE, staticFile, type StaticFile } from './static-file.js';

export interface DocsSite {
  readonly method: string;
  /** The endpoint's path; a file under key `k` is served at `<path>/<k>` (`''`: the path itself). */
  readonly path: string;
  readonly files: ReadonlyMap<string, StaticFile>;
  readonly guard?: EndpointGuard;
  /** The endpoint's cross-origin policy (cors.ts); absent: no CORS headers. */
  readonly cors?: CorsModel;
  /** The endpoint's compression (the server's, unless it says `compression = false`); absent: none. */
  readonly compressor?: Compressor;
}

/** RFC 8259: JSON is UTF-8; the charset is said anyway, as every other JSON answer of svc says it. */
const JSON_TYPE = 'application/json; charset=utf-8';
/** RFC 9512. */
const YAML_TYPE = 'application/yaml';
/** Assets are named by a hash of their bytes: a client may keep them for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The sites of the documentation endpoints. The document is compiled once, and only if one needs it:
 * a spec endpoint, or a renderer page with no JSON spec endpoint to load it from (it embeds it).
 */
/** `sqlColumns`: the rows' columns as the database described them (`check_queries = true`), to type them. */
export function docsSites(endpoints: readonly CompiledDocsEndpoint[], model: ServiceModel, sqlColumns?: SqlColumns): DocsSite[] {
  let document: OpenApiDocument | undefined;
  const theDocument = (): OpenApiDocument => (document ??= compileOpenApi(model, sqlColumns ? { sqlColumns } : {}));
  return endpoints.map((endpoint) => {
    // The endpoint as decoded carries its compression, as every endpoint's does (src/manifest/representation.ts).
    const compression = model.endpoints.find((e) => e.method === endpoint.method && e.path === endpoint.path)?.representation?.compression;
    return {
      method: endpoint.method,
      path: endpoint.path,
      files: filesOf(endpoint, theDocument, model),
      ...(endpoint.guard ? { guard: endpoint.guard } : {}),
      ...(endpoint.cors ? { cors: endpoint.cors } : {}),
      ...(compression ? { compressor: new Compressor(compression) } : {}),
    };
  });
}

function filesOf(endpoint: CompiledDocsEndpoint, document: () => OpenApiDocument, model: ServiceModel): Map<string, StaticFile> {
  const { docs, page } = endpoint;
  if (docs.kind === 'spec') {
    return new Map([['', staticFile(() => serializeDocument(document(), docs.format), docs.format === 'json' ? JSON_TYPE : YAML_TYPE, REVALIDATE)]]);
  }
  // compileService plans every page (src/docs) and refuses the endpoint when it cannot.
  if (page === undefined) throw new Error(`documentation endpoint ${endpoint.method} ${endpoint.path} was not planned`);
  const files = docsPageFiles({ page, path: endpoint.path, meta: model.openapi, documentJson: () => serializeDocument(document(), 'json') });
  return new Map([...files].map(([sub, file]) => [sub, staticFile(file.content, file.contentType, file.immutable ? IMMUTABLE : REVALIDATE, file.sha256)]));
}
