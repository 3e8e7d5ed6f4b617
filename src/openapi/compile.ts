/**
 * Model in, OpenAPI 3.1 document out (SPEC.md §1.4, §4.5; DECISIONS.md §1 for the metadata). Pure
 * and deterministic: the same model gives the same document, key for key, so `svc openapi` and a
 * served spec endpoint print the same bytes. Paths are listed in declaration order (files sorted,
 * blocks in source order), methods in the order of the Path Item Object, statuses ascending, shared
 * schemas and responses by name. Documentation endpoints are not part of the document.
 */
import type { AuthModel, EndpointModel, PipelineEndpointModel, ServiceModel, StepSpecBase } from '../model/index.js';
import { Components } from './components.js';
import type { ComponentsObject, OpenApiDocument, Operation, PathItem, SecurityScheme, TagObject } from './document-types.js';
import type { InferScope } from './infer.js';
import { operationIds } from './operation-id.js';
import { operationParameters, operationRequestBody } from './parameters.js';
import { operationResponses } from './responses.js';
import { operationSecurity, securityScheme } from './security.js';
import type { SqlColumns } from './sql-types.js';
import { StandardResponses } from './standard-responses.js';
import { allSteps } from './step-views.js';
import { SyntaxIndex } from './syntax.js';

const METHOD_ORDER = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface CompileOpenApiOptions {
  /**
   * The columns the database described for sql steps (`svc openapi --database`, `check_queries`):
   * their rows are typed from them instead of from the query's text (./sql-types.ts).
   */
  readonly sqlColumns?: SqlColumns;
}

export function compileOpenApi(model: ServiceModel, options: CompileOpenApiOptions = {}): OpenApiDocument {
  const components = new Components(model.schemas);
  const standard = new StandardResponses(model.server, components);
  const syntax = new SyntaxIndex(model.sources);
  const endpoints = model.endpoints.filter((e): e is PipelineEndpointModel => e.kind === 'pipeline');
  const ids = operationIds(endpoints);

  const operations = new Map<string, Map<string, Operation>>();
  // `/a/{x}` and `/a/{y}` are one path (routes collide by shape): the first one written names it.
  const pathOfShape = new Map<string, string>();
  const guards = new Set<string>();
  for (const endpoint of endpoints) {
    const guarded = endpoint.auth.length > 0;
    const scope: InferScope = {
      method: endpoint.method,
      request: endpoint.request,
      guarded,
      steps: namedSteps(endpoint.steps),
      syntax,
      components,
      ...(options.sqlColumns ? { sqlColumns: options.sqlColumns } : {}),
    };
    const endpointGuards = endpoint.auth.map((g) => model.auths.get(g)).filter((a): a is AuthModel => a !== undefined);
    const own = pathKey(endpoint);
    const shape = own.replace(/\{[^}]*\}/g, '{}');
    if (!pathOfShape.has(shape)) pathOfShape.set(shape, own);
    const key = pathOfShape.get(shape)!;
    if (!operations.has(key)) operations.set(key, new Map());
    const names = [...key.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!);
    operations.get(key)!.set(endpoint.method.toLowerCase(), operation(endpoint, ids.get(endpoint)!, endpointGuards, scope, standard, names));
    for (const g of endpoint.auth) guards.add(g);
  }

  const paths: Record<string, PathItem> = {};
  for (const [key, byMethod] of operations) {
    const item: Record<string, Operation> = {};
    for (const method of METHOD_ORDER) if (byMethod.has(method)) item[method] = byMethod.get(method)!;
    paths[key] = item;
  }

  // Built after the operations: they decide which schemas and responses are referenced.
  const schemes: Record<string, SecurityScheme> = {};
  for (const name of [...guards].sort()) {
    const auth = model.auths.get(name);
    if (auth !== undefined) schemes[name] = securityScheme(auth);
  }
  // Responses first: they reference the problem schemas.
  const responses = standard.responses();
  const schemas = components.schemas();
  const componentsObject: ComponentsObject = {
    ...(Object.keys(schemas).length > 0 ? { schemas } : {}),
    ...(Object.keys(responses).length > 0 ? { responses } : {}),
    ...(Object.keys(schemes).length > 0 ? { securitySchemes: schemes } : {}),
  };

  const meta = model.openapi;
  const tags = documentTags(meta.tags, endpoints);
  return {
    openapi: '3.1.0',
    info: {
      title: meta.title,
      ...(meta.description !== undefined ? { description: meta.description } : {}),
      ...(meta.contact !== undefined ? { contact: { ...meta.contact } } : {}),
      ...(meta.license !== undefined ? { license: { ...meta.license } } : {}),
      version: meta.version,
    },
    // Without declared servers, the document's own origin (OpenAPI's default, written out).
    servers: meta.servers.length > 0 ? meta.servers.map((s) => ({ ...s })) : [{ url: '/' }],
    paths,
    ...(Object.keys(componentsObject).length > 0 ? { components: componentsObject } : {}),
    ...(tags.length > 0 ? { tags } : {}),
  };
}

function operation(
  endpoint: PipelineEndpointModel,
  operationId: string,
  guards: readonly AuthModel[],
  scope: InferScope,
  standard: StandardResponses,
  templateNames: readonly string[],
): Operation {
  const { summary, description } = texts(endpoint);
  const parameters = operationParameters(endpoint, scope.components, templateNames);
  const requestBody = operationRequestBody(endpoint, scope.components);
  return {
    ...(endpoint.tags.length > 0 ? { tags: [...endpoint.tags] } : {}),
    summary,
    ...(description !== undefined ? { description } : {}),
    operationId,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody !== undefined ? { requestBody } : {}),
    responses: operationResponses(endpoint, guards, scope, standard),
    // Public endpoints say so: an empty list is "no credentials needed", not "unspecified".
    security: operationSecurity(endpoint.auth),
  };
}

/**
 * SPEC.md §4.5: an endpoint's `description` is the operation's description and summary (its first
 * line); a route's `summary` is the summary. An endpoint that says nothing is summarised by its
 * method and path, so every operation has a title in a renderer's list.
 */
function texts(endpoint: EndpointModel): { summary: string; description?: string } {
  const description = endpoint.description?.trim();
  const summary = endpoint.summary?.trim() || description?.split('\n')[0]?.trim() || `${endpoint.method} ${endpoint.path}`;
  return { summary, ...(description ? { description } : {}) };
}

/** `{rest...}` is written `{rest}`: OpenAPI has no catch-all, the parameter says it takes the rest. */
function pathKey(endpoint: EndpointModel): string {
  return endpoint.path.replace(/\{([^}]*?)\.\.\.\}/g, '{$1}');
}

function namedSteps(steps: readonly StepSpecBase[]): Map<string, StepSpecBase> {
  const out = new Map<string, StepSpecBase>();
  for (const s of allSteps(steps)) if (s.name !== undefined) out.set(s.name, s);
  return out;
}

/** The declared tags with their descriptions, then those only operations use, in first-use order. */
function documentTags(declared: readonly TagObject[], endpoints: readonly EndpointModel[]): TagObject[] {
  const out: TagObject[] = declared.map((t) => ({ ...t }));
  const known = new Set(out.map((t) => t.name));
  for (const e of endpoints) {
    for (const name of e.tags) {
      if (known.has(name)) continue;
      known.add(name);
      out.push({ name });
    }
  }
  return out;
}
