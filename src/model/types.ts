/**
 * The checked, immutable service definition: what `svc` serves after a successful boot.
 *
 * Built by src/model/build.ts from the decoded manifest; consumed by src/http (routing, guards),
 * src/steps/<kind>/node.ts (graph nodes), src/openapi (document) and src/cli. Everything here is
 * resolved: references point at declared things, defaults are applied, durations are milliseconds,
 * sizes are bytes, and every runtime expression is compiled once (`Expr`) with its references.
 * A model only exists when the manifest produced no error, so consumers never re-check it.
 */
import type { Range } from '../diag/range.js';
import type { FieldSpec, ObjectTypeSpec, RequestSpec, TypeSpec } from '../schema/field.js';
import type { SqlStepSpec } from '../steps/sql/spec.js';
import type { RedisStepSpec } from '../steps/redis/spec.js';
import type { HttpStepSpec } from '../steps/http/spec.js';
import type { StarlarkStepSpec } from '../steps/starlark/spec.js';
import type { TransactionStepSpec } from '../steps/transaction/spec.js';
import type { ParallelStepSpec } from '../steps/parallel/spec.js';
import type { RespondStepSpec } from '../steps/respond/spec.js';
import type { StreamStepSpec } from '../steps/stream/spec.js';

export type { FieldSpec, ObjectTypeSpec, RequestSpec, TypeSpec };
export type {
  SqlStepSpec,
  RedisStepSpec,
  HttpStepSpec,
  StarlarkStepSpec,
  TransactionStepSpec,
  ParallelStepSpec,
  RespondStepSpec,
  StreamStepSpec,
};
export type { CatchSpec, ConnectionRef, Expr, StepBase } from './step-common.js';

/** Which block form declared an endpoint (SPEC.md §2.1); both may be mixed in one manifest. */
export type Dialect = 'endpoint' | 'route';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export type ConnectionKind = 'postgres' | 'redis';

// ---------------------------------------------------------------- service

export interface ServiceModel {
  readonly server: ServerModel;
  /** Top-level `openapi { ... }` metadata, with DECISIONS.md §1 defaults applied. */
  readonly openapi: OpenApiMeta;
  /** In declaration order (files sorted, blocks in source order). */
  readonly endpoints: readonly EndpointModel[];
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

export function connectionKey(kind: ConnectionKind, name: string): string {
  return `${kind}.${name}`;
}

// ---------------------------------------------------------------- server and metadata

export interface ServerModel {
  /** Default `127.0.0.1`. */
  readonly host: string;
  /** Default 8080. */
  readonly port: number;
  /** Bytes; default 1 MiB. */
  readonly maxBodySize: number;
  /** Milliseconds; default 30 000. */
  readonly requestTimeoutMs: number;
  /** Milliseconds; default 10 000. */
  readonly shutdownTimeoutMs: number;
  /** Default guard names of every endpoint that has no `auth` of its own. */
  readonly auth: readonly string[];
  readonly range?: Range;
}

export interface OpenApiMeta {
  /** Default "API". */
  readonly title: string;
  /** Default "1.0.0". */
  readonly version: string;
  readonly description?: string;
  readonly servers: readonly { readonly url: string; readonly description?: string }[];
  readonly tags: readonly { readonly name: string; readonly description?: string }[];
  readonly contact?: { readonly name?: string; readonly url?: string; readonly email?: string };
  readonly license?: { readonly name: string; readonly url?: string; readonly identifier?: string };
  readonly range?: Range;
}

// ---------------------------------------------------------------- guards and connections

export type AuthModel = BasicAuthModel | BearerAuthModel | ApiKeyAuthModel;

interface AuthBase {
  readonly name: string;
  readonly range: Range;
}

export interface BasicAuthModel extends AuthBase {
  readonly type: 'basic';
  readonly username: string;
  readonly password: string;
}

/** Static tokens, or JWT verification; both may be set (a request passes if either admits it). */
export interface BearerAuthModel extends AuthBase {
  readonly type: 'bearer';
  readonly tokens: readonly string[];
  readonly jwt?: JwtConfig;
}

export interface JwtConfig {
  readonly secret?: string;
  readonly jwksUrl?: string;
  readonly issuer?: string;
  readonly audience?: readonly string[];
  /** Accepted `alg` values; default HS256 for a secret, RS256/ES256 for JWKS. */
  readonly algorithms?: readonly string[];
}

export interface ApiKeyAuthModel extends AuthBase {
  readonly type: 'api_key';
  /** Lower-case header name; default `x-api-key`. */
  readonly header: string;
  /** `keys = ["k1", ...]` gets ids `key1`, `key2`, ...; `keys = { id = "k" }` keeps the map's ids. */
  readonly keys: readonly { readonly id: string; readonly key: string }[];
}

export interface ConnectionModel {
  readonly kind: ConnectionKind;
  readonly name: string;
  /** `url` or its alias `source`, evaluated at boot (may come from `env()`). */
  readonly url: string;
  readonly pool?: { readonly max?: number; readonly idleTimeoutMs?: number };
  readonly statementTimeoutMs?: number;
  /** postgres only: migrations directory, resolved against `baseDir`. */
  readonly migrations?: string;
  /** Directory of the declaring file: relative `pglite:<dir>` and `migrations` resolve against it. */
  readonly baseDir: string;
  readonly range: Range;
}

// ---------------------------------------------------------------- endpoints

/** One segment of a path pattern. `/users/{id}/files/{rest...}` has four. */
export type PathSegment =
  | { readonly kind: 'literal'; readonly value: string }
  | { readonly kind: 'param'; readonly name: string }
  | { readonly kind: 'catchAll'; readonly name: string };

export type EndpointModel = PipelineEndpointModel | DocsEndpointModel;

interface EndpointBase {
  /** `"<METHOD> <path>"` exactly as labelled (method upper-cased). */
  readonly id: string;
  readonly method: HttpMethod;
  /** The path pattern as written, e.g. `/api/v1/users/{id}`. */
  readonly path: string;
  readonly segments: readonly PathSegment[];
  /** Names of `{name}` params in order, catch-all included (it is always last). */
  readonly pathParams: readonly string[];
  readonly catchAll?: string;
  readonly dialect: Dialect;
  /** `description` (endpoint dialect). */
  readonly description?: string;
  /** `summary` (route dialect). */
  readonly summary?: string;
  /** `tag` (route dialect). */
  readonly tags: readonly string[];
  /** Guard names after defaulting from `server.auth`; empty = public. */
  readonly auth: readonly string[];
  /** Validated request shape; every path param of the pattern is present in `request.path`. */
  readonly request: RequestSpec;
  /** The whole block, and its label (the method and path). */
  readonly range: Range;
  readonly labelRange: Range;
  /** Block path for runtime diagnostics: `['endpoint "GET /x"']`. */
  readonly blockPath: readonly string[];
}

export interface PipelineEndpointModel extends EndpointBase {
  readonly kind: 'pipeline';
  /** The steps in declared order; the last one always answers (boot check). */
  readonly steps: readonly StepSpec[];
  /** Every statically known status the pipeline can answer with (respond, catch), for OpenAPI. */
  readonly statuses: readonly number[];
}

export interface DocsEndpointModel extends EndpointBase {
  readonly kind: 'docs';
  readonly docs: DocsConfig;
}

export type UiRenderer = 'scalar' | 'elements' | 'swagger' | 'redoc';

/** What a documentation endpoint serves (DECISIONS.md §5). */
export type DocsConfig =
  | { readonly kind: 'ui'; readonly renderer: UiRenderer; readonly specUrl?: string; readonly range: Range }
  | { readonly kind: 'spec'; readonly format: 'json' | 'yaml'; readonly range: Range }
  /**
   * `template` / `template_file`. `inline` is the template text: written inline, or read from `file`
   * at boot (loadManifest reads it; in-memory builds only resolve `file`, leaving `inline` unset).
   */
  | { readonly kind: 'template'; readonly inline?: string; readonly file?: string; readonly range: Range };

// ---------------------------------------------------------------- steps

/** Every step kind of SPEC.md §4.1; one `spec.ts` per kind under src/steps/. */
export type StepSpec =
  | SqlStepSpec
  | RedisStepSpec
  | HttpStepSpec
  | StarlarkStepSpec
  | TransactionStepSpec
  | ParallelStepSpec
  | RespondStepSpec
  | StreamStepSpec;

export type StepKind = StepSpec['kind'];
