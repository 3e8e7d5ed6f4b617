/**
 * Documentation endpoints (SPEC.md §4.2, DECISIONS.md §5): what each serves, as files built once at
 * boot. A site is the files of one endpoint, keyed by their path below the endpoint's own (`''` is the
 * endpoint's path itself), all behind the endpoint's guard. A spec endpoint serves the document in
 * JSON or YAML, the very text `svc openapi` prints. A renderer page will be one more kind here: its
 * page under `''` and its assets under `assets/...` (cached as immutable), with no change to how
 * sites are mounted (server.ts).
 */
import type { ServiceModel } from '../model/index.js';
import { compileOpenApi, serializeDocument, type OpenApiDocument } from '../openapi/index.js';
import type { CompiledDocsEndpoint } from '../steps/index.js';
import type { EndpointGuard } from '../auth/index.js';
import { REVALIDATE, staticFile, type StaticFile } from './static-file.js';

export interface DocsSite {
  readonly method: string;
  /** The endpoint's path; a file under key `k` is served at `<path>/<k>` (`''`: the path itself). */
  readonly path: string;
  readonly files: ReadonlyMap<string, StaticFile>;
  readonly guard?: EndpointGuard;
}

/** RFC 8259: JSON is UTF-8; the charset is said anyway, as every other JSON answer of svc says it. */
const JSON_TYPE = 'application/json; charset=utf-8';
/** RFC 9512. */
const YAML_TYPE = 'application/yaml';

/** The sites of the documentation endpoints; the document is compiled once, and only if one needs it. */
export function docsSites(endpoints: readonly CompiledDocsEndpoint[], model: ServiceModel): DocsSite[] {
  let document: OpenApiDocument | undefined;
  const theDocument = (): OpenApiDocument => (document ??= compileOpenApi(model));
  return endpoints.map((endpoint) => ({
    method: endpoint.method,
    path: endpoint.path,
    files: filesOf(endpoint, theDocument),
    ...(endpoint.guard ? { guard: endpoint.guard } : {}),
  }));
}

function filesOf(endpoint: CompiledDocsEndpoint, document: () => OpenApiDocument): Map<string, StaticFile> {
  const { docs } = endpoint;
  switch (docs.kind) {
    case 'spec':
      return new Map([['', staticFile(serializeDocument(document(), docs.format), docs.format === 'json' ? JSON_TYPE : YAML_TYPE, REVALIDATE)]]);
    default:
      // Refused at boot (src/steps/compile.ts) until the renderers' release.
      throw new Error(`documentation endpoint ${endpoint.method} ${endpoint.path}: ${docs.kind} pages are not served by this release`);
  }
}
