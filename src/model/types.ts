/**
 * The checked, immutable service definition `svc` serves after a successful boot, built by
 * src/model/build.ts. Everything is resolved (src/manifest/types.ts, re-exported here), and a model
 * exists only when the manifest produced no error, so consumers never re-check it. Generic in its step
 * type: src/steps builds `ServiceModel<StepSpec>`; below that layer a step is a `StepSpecBase`.
 */
import type { AuthModel, ConnectionModel, EndpointModel, OpenApiMeta, ServerModel, StepSpecBase } from '../manifest/index.js';
import type { ObjectTypeSpec } from '../schema/index.js';

export type {
  ApiKeyAuthModel,
  AuthModel,
  BasicAuthModel,
  BearerAuthModel,
  BodyResponse,
  CatchSpec,
  ConnectionKind,
  ConnectionModel,
  CompressionModel,
  ConnectionRef,
  ContentCoding,
  CorsModel,
  Dialect,
  DocsConfig,
  DocsEndpointModel,
  EndpointModel,
  Expr,
  HealthModel,
  HttpMethod,
  JwtConfig,
  OpenApiMeta,
  PathSegment,
  PipelineEndpointModel,
  RateLimitModel,
  RepresentationModel,
  ServerModel,
  ServerRateLimit,
  SqlKind,
  StepResponse,
  StepSpecBase,
  StreamResponse,
  TracingModel,
  UiRenderer,
} from '../manifest/index.js';
export type { FieldSpec, ObjectTypeSpec, RequestSpec, TypeSpec } from '../schema/index.js';

export interface ServiceModel<S extends StepSpecBase = StepSpecBase> {
  readonly server: ServerModel;
  /** Top-level `openapi { ... }` metadata, with DECISIONS.md §1 defaults applied. */
  readonly openapi: OpenApiMeta;
  /** In declaration order (files sorted, blocks in source order). */
  readonly endpoints: readonly EndpointModel<S>[];
  /** `schema "<name>"` blocks, each an object type with `name` set. */
  readonly schemas: ReadonlyMap<string, ObjectTypeSpec>;
  readonly auths: ReadonlyMap<string, AuthModel>;
  /** Keyed `<kind>.<name>` (see `connectionKey`). */
  readonly connections: ReadonlyMap<string, ConnectionModel>;
  /** Manifest file name -> its text, for rendering diagnostics and runtime errors with snippets. */
  readonly sources: ReadonlyMap<string, string>;
  /** The manifest directory (absolute when loaded from disk; '.' for in-memory builds). */
  readonly dir: string;
}
