/**
 * `server { tracing { endpoint, service_name, sample_ratio, headers } }`: OpenTelemetry tracing
 * (docs/operations.md "Tracing"). The block turns tracing on; every attribute is optional and, when absent, its
 * standard `OTEL_*` environment variable decides (src/tracing/settings.ts holds the precedence).
 */
import type { Attribute, Block } from '../hcl/index.js';
import { decodeBody, type BodySchema } from './body.js';
import type { DecodeScope } from './scope.js';
import type { TracingModel } from './types.js';
import { invalidValue, readNumber, readStatic, readString } from './values.js';

const TRACING_BODY: BodySchema = { attributes: { endpoint: {}, service_name: {}, sample_ratio: {}, headers: {} }, blocks: {} };

/** HTTP field names (RFC 9110 tokens), for `headers`. */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function decodeServerTracing(block: Block, scope: DecodeScope): TracingModel {
  const s = scope.enter(block);
  const { attrs } = decodeBody(block.body, TRACING_BODY, s, block);
  const endpoint = readEndpoint(attrs.get('endpoint'), s);
  const serviceName = readServiceName(attrs.get('service_name'), s);
  const sampleRatio = readNumber(attrs.get('sample_ratio'), s, { min: 0, max: 1 });
  const headers = readHeaders(attrs.get('headers'), s);
  return {
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(serviceName !== undefined ? { serviceName } : {}),
    ...(sampleRatio !== undefined ? { sampleRatio } : {}),
    ...(headers !== undefined ? { headers } : {}),
  };
}

/** The collector's OTLP/HTTP base URL (`/v1/traces` is appended), http: or https:, without a query. */
function readEndpoint(attr: Attribute | undefined, scope: DecodeScope): string | undefined {
  const value = readString(attr, scope);
  if (value === undefined || attr === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    invalidValue(
      attr,
      scope,
      `\`endpoint\` is the OTLP/HTTP base URL of a collector, such as "http://localhost:4318" (svc sends to its /v1/traces); got ${JSON.stringify(value)}.`,
    );
    return undefined;
  }
  return value;
}

function readServiceName(attr: Attribute | undefined, scope: DecodeScope): string | undefined {
  const value = readString(attr, scope);
  if (value === undefined || attr === undefined) return undefined;
  if (value.trim() === '') {
    invalidValue(attr, scope, '`service_name` names the service in the traces (the `service.name` resource attribute); it cannot be empty.');
    return undefined;
  }
  return value;
}

/** A map of header names to strings, sent with every export (a hosted collector's API key). */
function readHeaders(attr: Attribute | undefined, scope: DecodeScope): Readonly<Record<string, string>> | undefined {
  if (attr === undefined) return undefined;
  const value = readStatic(attr, scope);
  if (!value.ok) return undefined;
  if (value.value === null || typeof value.value !== 'object' || Array.isArray(value.value)) {
    invalidValue(attr, scope, '`headers` is a map of header names to strings, such as { "x-api-key" = env("COLLECTOR_KEY") }.');
    return undefined;
  }
  const headers: Record<string, string> = {};
  for (const [name, field] of Object.entries(value.value as Record<string, unknown>)) {
    if (!FIELD_NAME.test(name) || typeof field !== 'string' || /[\r\n\0]/.test(field)) {
      invalidValue(attr, scope, `\`headers\` maps header names to strings without line breaks; ${JSON.stringify(name)} is not one.`);
      return undefined;
    }
    headers[name.toLowerCase()] = field;
  }
  return headers;
}
