/**
 * An OTLP/HTTP trace receiver for the tests: a node:http server on loopback taking what an
 * OpenTelemetry exporter posts to `/v1/traces` and decoding it as the OTLP specification says.
 *
 * svc's exporter (@opentelemetry/exporter-trace-otlp-http) sends OTLP/HTTP with the JSON encoding:
 * the protobuf messages of opentelemetry-proto (`ExportTraceServiceRequest`, trace/v1/trace.proto)
 * in the proto3 JSON mapping, with the OTLP exceptions (trace and span ids as hex, enums as
 * integers). The decoder checks every message against those definitions: the fields each message
 * has (lowerCamelCase JSON names; a field the proto does not define is an error), the id lengths,
 * the enum values, int64 times as decimal strings or numbers. Anything else is answered 400 and
 * recorded, so a test fails on a malformed export rather than on a missing span.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** trace.proto `Span.SpanKind`. */
export const SpanKind = { UNSPECIFIED: 0, INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;
/** trace.proto `Status.StatusCode`. */
export const StatusCode = { UNSET: 0, OK: 1, ERROR: 2 } as const;

/** The fields of each message of the request (opentelemetry-proto v1), by their JSON names. */
const FIELDS = {
  ExportTraceServiceRequest: ['resourceSpans'],
  ResourceSpans: ['resource', 'scopeSpans', 'schemaUrl'],
  Resource: ['attributes', 'droppedAttributesCount', 'entityRefs'],
  ScopeSpans: ['scope', 'spans', 'schemaUrl'],
  InstrumentationScope: ['name', 'version', 'attributes', 'droppedAttributesCount'],
  Span: [
    'traceId',
    'spanId',
    'traceState',
    'parentSpanId',
    'flags',
    'name',
    'kind',
    'startTimeUnixNano',
    'endTimeUnixNano',
    'attributes',
    'droppedAttributesCount',
    'events',
    'droppedEventsCount',
    'links',
    'droppedLinksCount',
    'status',
  ],
  Event: ['timeUnixNano', 'name', 'attributes', 'droppedAttributesCount'],
  Link: ['traceId', 'spanId', 'traceState', 'attributes', 'droppedAttributesCount', 'flags'],
  Status: ['message', 'code'],
  KeyValue: ['key', 'value'],
  AnyValue: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'],
} as const;

type Message = keyof typeof FIELDS;
export type Value = string | number | boolean | Value[] | { [key: string]: Value } | null;

export interface ReceivedEvent {
  readonly name: string;
  readonly timeNs: bigint;
  readonly attributes: Record<string, Value>;
}

/** One span as decoded, with its resource's and scope's attributes. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** '' for a root span. */
  readonly parentSpanId: string;
  readonly traceState: string;
  readonly name: string;
  readonly kind: number;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly attributes: Record<string, Value>;
  readonly events: readonly ReceivedEvent[];
  readonly status: { readonly code: number; readonly message: string };
  readonly resource: Record<string, Value>;
  readonly scope: string;
}

export interface Receiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT or `tracing { endpoint }`. */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  /** Exports refused as malformed, with why. */
  readonly rejected: string[];
  /** The requests' headers, one per export. */
  readonly headers: IncomingMessage['headers'][];
  /** Resolves once `predicate` holds for the spans received (polled; rejects after `ms`). */
  waitFor(predicate: (spans: readonly ReceivedSpan[]) => boolean, ms?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const spans: ReceivedSpan[] = [];
  const rejected: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        if (req.method !== 'POST' || req.url !== '/v1/traces') throw new Error(`${req.method} ${req.url}: not the OTLP/HTTP traces path`);
        if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) throw new Error(`content-type ${req.headers['content-type']}`);
        headers.push(req.headers);
        spans.push(...decodeRequest(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch (error) {
        rejected.push((error as Error).message);
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 3, message: (error as Error).message }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    rejected,
    headers,
    async waitFor(predicate, ms = 20_000) {
      const deadline = Date.now() + ms;
      while (!predicate(spans)) {
        if (rejected.length > 0) throw new Error(`the receiver refused an export: ${rejected.join('; ')}`);
        if (Date.now() > deadline) throw new Error(`the spans awaited did not arrive within ${ms} ms; received: ${spans.map((s) => s.name).join(', ')}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function decodeRequest(body: unknown): ReceivedSpan[] {
  const request = message(body, 'ExportTraceServiceRequest');
  const out: ReceivedSpan[] = [];
  for (const rs of list(request.resourceSpans)) {
    const resourceSpans = message(rs, 'ResourceSpans');
    const resource = attributesOf(message(resourceSpans.resource ?? {}, 'Resource').attributes);
    for (const ss of list(resourceSpans.scopeSpans)) {
      const scopeSpans = message(ss, 'ScopeSpans');
      const scope = message(scopeSpans.scope ?? {}, 'InstrumentationScope');
      for (const s of list(scopeSpans.spans)) out.push(decodeSpan(message(s, 'Span'), resource, String(scope.name ?? '')));
    }
  }
  return out;
}

function decodeSpan(span: Record<string, unknown>, resource: Record<string, Value>, scope: string): ReceivedSpan {
  const traceId = hexId(span.traceId, 32, 'traceId');
  const spanId = hexId(span.spanId, 16, 'spanId');
  const parentSpanId = span.parentSpanId === undefined || span.parentSpanId === '' ? '' : hexId(span.parentSpanId, 16, 'parentSpanId');
  const kind = enumValue(span.kind ?? 0, SpanKind, 'Span.kind');
  const status = message(span.status ?? {}, 'Status');
  return {
    traceId,
    spanId,
    parentSpanId,
    traceState: typeof span.traceState === 'string' ? span.traceState : '',
    name: string(span.name, 'Span.name'),
    kind,
    startNs: fixed64(span.startTimeUnixNano, 'startTimeUnixNano'),
    endNs: fixed64(span.endTimeUnixNano, 'endTimeUnixNano'),
    attributes: attributesOf(span.attributes),
    events: list(span.events).map((e) => {
      const event = message(e, 'Event');
      return { name: string(event.name, 'Event.name'), timeNs: fixed64(event.timeUnixNano, 'Event.timeUnixNano'), attributes: attributesOf(event.attributes) };
    }),
    status: { code: enumValue(status.code ?? 0, StatusCode, 'Status.code'), message: typeof status.message === 'string' ? status.message : '' },
    resource,
    scope,
  };
}

function message(value: unknown, type: Message): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${type}: not a message`);
  const known: readonly string[] = FIELDS[type];
  for (const key of Object.keys(value)) if (!known.includes(key)) throw new Error(`${type} has no field ${key}`);
  return value as Record<string, unknown>;
}

function list(value: unknown): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new Error('a repeated field that is not a list');
  return value;
}

function string(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new Error(`${what}: not a string`);
  return value;
}

function hexId(value: unknown, digits: number, what: string): string {
  if (typeof value !== 'string' || !new RegExp(`^[0-9a-f]{${digits}}$`).test(value) || /^0+$/.test(value))
    throw new Error(`${what}: ${JSON.stringify(value)} is not ${digits} hex digits`);
  return value;
}

function enumValue(value: unknown, values: Record<string, number>, what: string): number {
  if (typeof value !== 'number' || !Object.values(values).includes(value)) throw new Error(`${what}: ${JSON.stringify(value)} is not a value of the enum`);
  return value;
}

/** fixed64 / int64: a decimal string in the proto3 JSON mapping (a number is accepted too). */
function fixed64(value: unknown, what: string): bigint {
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw new Error(`${what}: ${JSON.stringify(value)} is not a fixed64`);
}

function attributesOf(value: unknown): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const kv of list(value)) {
    const pair = message(kv, 'KeyValue');
    out[string(pair.key, 'KeyValue.key')] = anyValue(pair.value);
  }
  return out;
}

function anyValue(value: unknown): Value {
  const v = message(value ?? {}, 'AnyValue');
  if ('stringValue' in v) return string(v.stringValue, 'stringValue');
  if ('boolValue' in v) return Boolean(v.boolValue);
  if ('intValue' in v) {
    // int64: a decimal string (or a number), signed.
    if (!/^-?\d+$/.test(String(v.intValue))) throw new Error(`intValue: ${JSON.stringify(v.intValue)} is not an int64`);
    return Number(v.intValue);
  }
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('arrayValue' in v) return list((v.arrayValue as { values?: unknown }).values).map(anyValue);
  if ('kvlistValue' in v) return attributesOf((v.kvlistValue as { values?: unknown }).values);
  return null;
}
