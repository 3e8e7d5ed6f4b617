/**
 * `server { host, port, max_body_size, request_timeout, shutdown_timeout, auth = [...], docs_auth = [...], log_level,
 * access_log, metrics, workers, etag, h2c, rate_limit { ... }, cors { ... }, health { ... }, compression { ... }, tls { ... }, tracing { ... } }` with the defaults of DECISIONS.md §1. Sizes and durations are parsed here, at boot.
 */
import type { Attribute, Block } from '../hcl/index.js';
import { LOG_LEVELS, type ServerModel } from './types.js';
import { blocksOf, decodeBody, type BodySchema } from './body.js';
import { decodeServerCors } from './cors.js';
import { decodeServerHealth } from './health.js';
import { decodeServerRateLimit } from './rate-limit.js';
import type { FileAccess } from './files.js';
import { decodeServerTls } from './tls.js';
import { decodeServerTracing } from './tracing.js';
import { decodeServerCompression } from './representation.js';
import { readGuardList, type ConnectionTable, type GuardNames } from './refs.js';
import type { DecodeScope } from './scope.js';
import { invalidValue, readBool, readChoice, readDuration, readInt, readSize, readStatic, readString } from './values.js';

export const SERVER_DEFAULTS = {
  host: '127.0.0.1',
  port: 8080,
  maxBodySize: 1024 * 1024,
  requestTimeoutMs: 30_000,
  shutdownTimeoutMs: 10_000,
} as const;

const SERVER_BODY: BodySchema = {
  attributes: {
    host: {},
    port: {},
    max_body_size: {},
    request_timeout: {},
    shutdown_timeout: {},
    auth: {},
    docs_auth: {},
    log_level: {},
    access_log: {},
    metrics: {},
    workers: {},
    etag: {},
    h2c: {},
  },
  blocks: { rate_limit: {}, cors: {}, health: {}, compression: {}, tls: {}, tracing: {} },
};

export function defaultServer(): ServerModel {
  return { ...SERVER_DEFAULTS, auth: [], accessLog: true };
}

export function decodeServer(block: Block, scope: DecodeScope, guards: GuardNames, connections: ConnectionTable, files: FileAccess): ServerModel {
  const s = scope.enter(block);
  const decoded = decodeBody(block.body, SERVER_BODY, s, block);
  const { attrs } = decoded;
  const rateLimitBlock = blocksOf(decoded, 'rate_limit')[0];
  const rateLimit = rateLimitBlock && decodeServerRateLimit(rateLimitBlock, s, connections);
  const corsBlock = blocksOf(decoded, 'cors')[0];
  const cors = corsBlock && decodeServerCors(corsBlock, s);
  const healthBlock = blocksOf(decoded, 'health')[0];
  const health = healthBlock && decodeServerHealth(healthBlock, s);
  const compressionBlock = blocksOf(decoded, 'compression')[0];
  const compression = compressionBlock && decodeServerCompression(compressionBlock, s);
  const etag = readBool(attrs.get('etag'), s);
  const tlsBlock = blocksOf(decoded, 'tls')[0];
  const tls = tlsBlock && decodeServerTls(tlsBlock, s, files);
  const h2c = readH2c(attrs.get('h2c'), tlsBlock !== undefined, s);
  const tracingBlock = blocksOf(decoded, 'tracing')[0];
  const tracing = tracingBlock && decodeServerTracing(tracingBlock, s);
  const auth = attrs.get('auth');
  const docsAuthAttr = attrs.get('docs_auth');
  const docsAuth = docsAuthAttr && readGuardList(docsAuthAttr, s, guards);
  const logLevel = readChoice(attrs.get('log_level'), s, LOG_LEVELS);
  const metricsPath = readMetricsPath(attrs.get('metrics'), s);
  const workers = readWorkers(attrs.get('workers'), s);
  return {
    host: readString(attrs.get('host'), s) ?? SERVER_DEFAULTS.host,
    port: readInt(attrs.get('port'), s, { min: 0, max: 65535 }) ?? SERVER_DEFAULTS.port,
    maxBodySize: readSize(attrs.get('max_body_size'), s) ?? SERVER_DEFAULTS.maxBodySize,
    requestTimeoutMs: readDuration(attrs.get('request_timeout'), s) ?? SERVER_DEFAULTS.requestTimeoutMs,
    shutdownTimeoutMs: readDuration(attrs.get('shutdown_timeout'), s) ?? SERVER_DEFAULTS.shutdownTimeoutMs,
    auth: (auth && readGuardList(auth, s, guards)) || [],
    ...(docsAuth ? { docsAuth } : {}),
    accessLog: readBool(attrs.get('access_log'), s) ?? true,
    ...(logLevel !== undefined ? { logLevel } : {}),
    ...(metricsPath !== undefined ? { metricsPath } : {}),
    ...(workers !== undefined ? { workers } : {}),
    ...(rateLimit !== undefined ? { rateLimit } : {}),
    ...(cors !== undefined ? { cors } : {}),
    ...(health !== undefined ? { health } : {}),
    ...(compression !== undefined ? { compression } : {}),
    ...(etag !== undefined ? { etag } : {}),
    ...(tls !== undefined ? { tls } : {}),
    ...(h2c === true ? { h2c } : {}),
    ...(tracing !== undefined ? { tracing } : {}),
    range: block.range,
  };
}

/** An absolute path without parameters: the metrics page is a fixed route beside the endpoints. */
function readMetricsPath(attr: Attribute | undefined, scope: DecodeScope): string | undefined {
  const path = readString(attr, scope);
  if (path === undefined || attr === undefined) return undefined;
  if (!/^\/[A-Za-z0-9._~/-]*$/.test(path)) {
    invalidValue(attr, scope, `\`metrics\` is the path the Prometheus page is served on, such as "/metrics"; got "${path}".`);
    return undefined;
  }
  return path;
}

/** `h2c = true`: HTTP/2 without TLS; with a `tls` block HTTP/2 is already there (negotiated), so both is a mistake. */
function readH2c(attr: Attribute | undefined, withTls: boolean, scope: DecodeScope): boolean | undefined {
  const h2c = readBool(attr, scope);
  if (h2c === true && withTls && attr !== undefined) {
    invalidValue(
      attr,
      scope,
      '`h2c` is cleartext HTTP/2, for a proxy in front that speaks it; with a `tls` block HTTP/2 is negotiated by ALPN already.',
      'Remove `h2c`.',
    );
    return undefined;
  }
  return h2c;
}

/** A positive whole number of processes, or "auto" (one per core). */
function readWorkers(attr: Attribute | undefined, scope: DecodeScope): number | 'auto' | undefined {
  if (attr === undefined) return undefined;
  const value = readStatic(attr, scope);
  if (value.ok && value.value === 'auto') return 'auto';
  if (value.ok && typeof value.value === 'string' && !/^\d+$/.test(value.value)) {
    invalidValue(attr, scope, `\`workers\` is a whole number of processes or "auto"; got "${value.value}".`);
    return undefined;
  }
  return readInt(attr, scope, { min: 1, max: 1024 });
}
