/**
 * The checked, immutable service definition: what `svc` serves after a successful boot.
 *
 * Built by src/model/build.ts from the decoded manifest; consumed by src/steps (graph nodes), src/http
 * (routing, guards), src/openapi (document) and src/cli. Everything here is resolved: references
 * point at declared things, defaults are applied, durations are milliseconds, sizes are bytes, and
 * every runtime expression is compiled once (`Expr`) with its references. A model only exists when
 * the manifest produced no error, so consumers never re-check it.
 *
 * The parts the manifest decoders produce are defined in src/manifest/types.ts and re-exported here.
 * The model is generic in its step type `S`: src/steps, which owns the step kinds, builds it with
 * its own union (`ServiceModel<StepSpec>`); below that layer a step is a `StepSpecBase`.
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
