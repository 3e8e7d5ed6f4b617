/**
 * The shapes the manifest decoders produce, all resolved (references checked, defaults applied,
 * durations in ms, sizes in bytes, runtime expressions compiled once). src/model checks them further
 * and re-exports them in the immutable `ServiceModel`. Endpoints are generic in their step type: the
 * union of step kinds belongs to src/steps, which injects its decoders (./steps.ts).
 */
import type { Range } from '../diag/index.js';
import type { RequestSpec } from '../schema/index.js';
import type { ConnectionKind } from './connection-kind.js';
import type { Expr, StepResponse, StepSpecBase } from './step-types.js';

/** Which block form declared an endpoint (SPEC.md §2.1); both may be mixed in one manifest. */
export type Dialect = 'endpoint' | 'route';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

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
  /**
   * `docs_auth = [...]`: the default guards of documentation endpoints (an `openapi` block) instead
   * of `auth`, so that a protected API can publish its document without `auth = []` on each.
   */
  readonly docsAuth?: readonly string[];
  /** `log_level`: pino's level names plus `silent`; absent means the command line's, else `info`. */
  readonly logLevel?: LogLevel;
  /** `access_log = false` drops the per-request line (warnings and errors are still written). Default true. */
  readonly accessLog: boolean;
  /** `metrics = "/metrics"`: the path Prometheus text is served on; absent (the default) means off. */
  readonly metricsPath?: string;
  /** `workers = N | "auto"`: processes sharing the port (Node's cluster); absent means one. */
  readonly workers?: number | 'auto';
  /** `rate_limit { ... }`: every endpoint's limit (with `max` and `window`) and the defaults of theirs. */
  readonly rateLimit?: ServerRateLimit;
  /** `cors { ... }`: the cross-origin policy of every endpoint that says nothing of its own (docs/cors.md). */
  readonly cors?: CorsModel;
  /** `compression { ... }`: answers compressed from `Accept-Encoding` (docs/compression.md); absent: off. */
  readonly compression?: CompressionModel;
  /** `etag = true`: every GET endpoint's JSON answers carry a strong ETag (docs/conditional-requests.md). */
  readonly etag?: boolean;
  /** `health { live, ready }`: the probes' paths (docs/operations.md "Health and readiness"); absent: none. */
  readonly health?: HealthModel;
  /** `tls { cert_file, key_file }`: HTTPS, HTTP/2 by ALPN with HTTP/1.1 beside it (docs/tls.md). */
  readonly tls?: TlsModel;
  /** `h2c = true`: cleartext HTTP/2 by prior knowledge only, for a proxy that speaks it; not with `tls`. */
  readonly h2c?: boolean;
  /** `tracing { ... }`: OpenTelemetry tracing (docs/operations.md "Tracing"); absent: the `OTEL_*` environment decides. */
  readonly tracing?: TracingModel;
  readonly range?: Range;
}

/** A certificate chain and its private key (PEM), read at boot and at each reload. */
export interface TlsModel {
  /** The paths as resolved against the manifest directory. */
  readonly certFile: string;
  readonly keyFile: string;
  /** The PEM text, when the build reads files (absent in in-memory builds). */
  readonly cert?: string;
  readonly key?: string;
}

/** The paths of the liveness and readiness probes; a block without them serves both at their defaults. */
export interface HealthModel {
  readonly livePath?: string;
  readonly readyPath?: string;
  /** `drain_delay`: milliseconds a stopping process serves on, not ready, before closing its port. */
  readonly drainDelayMs?: number;
}

/** `server { tracing { ... } }`; absent attributes are left to the `OTEL_*` environment (src/tracing/settings.ts). */
export interface TracingModel {
  /** OTLP/HTTP base URL of the collector. */
  readonly endpoint?: string;
  readonly serviceName?: string;
  /** 0..1: the share of new traces sampled (parent-based). */
  readonly sampleRatio?: number;
  /** Sent with every export; lower-case names. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A content coding svc can produce, by its `Accept-Encoding` token. */
export type ContentCoding = 'zstd' | 'br' | 'gzip';

/** A `compression { ... }` block as served (src/http/compress.ts compiles it). */
export interface CompressionModel {
  /** In the server's order of preference; a client's q-values decide first. */
  readonly encodings: readonly ContentCoding[];
  /** Bodies shorter than this many bytes are sent as they are; streams are always compressed. */
  readonly minSize: number;
  readonly gzipLevel: number;
  readonly brotliQuality: number;
  readonly zstdLevel: number;
}

/** How an endpoint's answers are represented (docs/compression.md, docs/conditional-requests.md). */
export interface RepresentationModel {
  /** Absent: never compressed (no server block, or `compression = false`). */
  readonly compression?: CompressionModel;
  /** A strong ETag on GET/HEAD answers with a body, and 304 on a matching `If-None-Match`. */
  readonly etag: boolean;
  /** `cache_control = "..."`, validated; sent on answers that are not problems. */
  readonly cacheControl?: string;
}

/**
 * A `cors { ... }` block as served (docs/cors.md; src/http/cors.ts compiles it): the server's, or an
 * endpoint's own with what it leaves out taken from the server's.
 */
export interface CorsModel {
  /** Exact origins (`https://app.example.com`, lower-cased), `*`, or patterns (`https://*.example.com`). */
  readonly allowedOrigins: readonly string[];
  /** Upper-cased; `*` (the default) means every method the path declares. */
  readonly allowedMethods: readonly string[] | '*';
  /** Request headers a page may send, lower-cased; `*` means any. */
  readonly allowedHeaders: readonly string[] | '*';
  /** Response headers a page may read beyond svc's own (`X-Request-Id`, the rate-limit fields), as written. */
  readonly exposedHeaders: readonly string[];
  readonly allowCredentials: boolean;
  /** How long a browser may keep a preflight's answer, in seconds. */
  readonly maxAgeSeconds: number;
  readonly range: Range;
}

/**
 * The server's `rate_limit` block. With `max` and `window` it limits every endpoint that does not say
 * otherwise, on one budget per client shared by those endpoints; without them it only gives defaults
 * (`key`, and the store: `connection`) to endpoints' own blocks.
 */
export interface ServerRateLimit {
  readonly max?: number;
  /** Milliseconds. */
  readonly windowMs?: number;
  /** What identifies a client; absent means its address. */
  readonly key?: Expr;
  /** The redis connection counters are kept in; absent means in the process's memory. */
  readonly connection?: string;
  readonly range: Range;
}

/** The limit an endpoint's requests are counted against (docs/rate-limits.md). */
export interface RateLimitModel {
  /** `server`: the server's limit, one budget shared by every endpoint on it; `endpoint`: the endpoint's own. */
  readonly policy: 'server' | 'endpoint';
  readonly max: number;
  /** Milliseconds. */
  readonly windowMs: number;
  /** Compiled with the rate-limit key roots (rate-limit.ts); absent means the client address. */
  readonly key?: Expr;
  /** The block that set it (the endpoint's, or the server's). */
  readonly range: Range;
}

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

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
  /** Accepted `alg` values; default HS256/384/512 for a secret, RS256/ES256/EdDSA for JWKS. */
  readonly algorithms?: readonly string[];
  /**
   * `required_claims = ["role"]` (present) or `{ role = "admin" }` (equal to, or contained in a list
   * claim, or one of the words of a `scope` claim); a verified token without them is a 403.
   */
  readonly requiredClaims?: readonly RequiredClaim[];
}

export interface RequiredClaim {
  readonly name: string;
  /** Absent: the claim must only be present. */
  readonly value?: string | number | boolean;
}

export interface ApiKeyAuthModel extends AuthBase {
  readonly type: 'api_key';
  /** Where the key is read: a lower-case header name (default `x-api-key`), or a query parameter. */
  readonly header?: string;
  readonly query?: string;
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
  /** sqlite only: `busy_timeout`, how long a statement waits for a lock another process holds. */
  readonly busyTimeoutMs?: number;
  /**
   * mysql only: `tls { ca_file, cert_file, key_file, reject_unauthorized }`, the connection's TLS
   * (files resolved against `baseDir`, read when the connection opens). Absent means no TLS.
   */
  readonly tls?: ConnectionTlsModel;
  /** postgres only: migrations directory, resolved against `baseDir`. */
  readonly migrations?: string;
  /**
   * postgres only: `prepared_statements = false` sends every query unnamed (for a pooler in
   * transaction mode, such as PgBouncer without prepared-statement support). Absent means true.
   */
  readonly preparedStatements?: boolean;
  /**
   * postgres, sqlite, mysql: `check_queries = true` makes `svc serve` describe every sql step's statement on
   * the connection at boot, after its migrations, and refuse to start when the database refuses one.
   */
  readonly checkQueries?: boolean;
  /**
   * `shared = false` on a `memory:` redis connection: the author accepts that each worker process
   * keeps its own store. Absent means the store must be shared, so more than one worker is refused.
   */
  readonly shared?: boolean;
  /** Directory of the declaring file: relative `pglite:<dir>` and `migrations` resolve against it. */
  readonly baseDir: string;
  readonly range: Range;
  /** Where `url` (or `source`) is written: diagnostics about the store it names point there. */
  readonly urlRange?: Range;
}

/** A client's TLS towards a database server: which CAs it trusts, its own certificate, whether it checks. */
export interface ConnectionTlsModel {
  readonly caFile?: string;
  readonly certFile?: string;
  readonly keyFile?: string;
  /** false accepts any server certificate (a self-signed one in development). Absent means true. */
  readonly rejectUnauthorized?: boolean;
}

// ---------------------------------------------------------------- endpoints

/** One segment of a path pattern. `/users/{id}/files/{rest...}` has four. */
export type PathSegment =
  | { readonly kind: 'literal'; readonly value: string }
  | { readonly kind: 'param'; readonly name: string }
  | { readonly kind: 'catchAll'; readonly name: string };

export type EndpointModel<S extends StepSpecBase = StepSpecBase> = PipelineEndpointModel<S> | DocsEndpointModel;

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
  /** Absent: not limited (no limit applies, or `rate_limit = false`). */
  readonly rateLimit?: RateLimitModel;
  /** Absent: no cross-origin access (no `cors` block applies, or `cors = false`). */
  readonly cors?: CorsModel;
  /** Absent: answers as the pipeline wrote them (no compression, ETag or Cache-Control applies). */
  readonly representation?: RepresentationModel;
  /** Validated request shape; every path param of the pattern is present in `request.path`. */
  readonly request: RequestSpec;
  /** The whole block, and its label (the method and path). */
  readonly range: Range;
  readonly labelRange: Range;
  /** Block path for runtime diagnostics: `['endpoint "GET /x"']`. */
  readonly blockPath: readonly string[];
}

export interface PipelineEndpointModel<S extends StepSpecBase = StepSpecBase> extends EndpointBase {
  readonly kind: 'pipeline';
  /** The steps in declared order; the last one always answers (boot check). */
  readonly steps: readonly S[];
  /** Every statically known status the pipeline can answer with (respond, catch), for OpenAPI. */
  readonly statuses: readonly number[];
  /**
   * The statuses a failed step of the pipeline can answer with (400, 502, 503, 504: its kind's
   * `failures`), sorted, for OpenAPI. Filled in by the model's build, from the step kinds.
   */
  readonly failureStatuses: readonly number[];
  /** What the pipeline's steps answer with (their kinds' `responses`), in declared order, for OpenAPI. */
  readonly responses: readonly StepResponse[];
  /**
   * `after_response { ... }`: steps run once the pipeline's answer (below 400) has been written, with
   * its `ctx` and its steps' outputs (src/steps/after-response.ts). Absent when not declared.
   */
  readonly after?: readonly S[];
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
   * `source` is where inline text was written (a heredoc's text starts on the line after `<<EOT`),
   * so a template diagnostic can name the manifest line.
   */
  | {
      readonly kind: 'template';
      readonly inline?: string;
      readonly file?: string;
      readonly source?: { readonly range: Range; readonly heredoc: boolean };
      /** `spec_url` as written: the template's `{{ .SpecURL }}` instead of the nearest JSON spec endpoint. */
      readonly specUrl?: string;
      readonly range: Range;
    };
