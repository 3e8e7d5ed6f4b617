/**
 * Tracing end to end (docs/operations.md "Tracing"): a real `svc serve` process exporting over OTLP/HTTP to a
 * receiver in the test (otlp-receiver.ts decodes the protocol by the opentelemetry-proto
 * definitions), with the real PostgreSQL and Redis of the test environment and a local upstream.
 * Checked: the incoming trace continued, the parentage server -> steps -> clients, the attributes
 * of each kind, timing (each child within its parent), an sql error on its span, a stream's span with
 * its items and bytes, `traceparent` at the upstream, trace ids in the log lines.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { kill, serve, type Served } from '../cli/serve-helpers.js';
import { NO_REAL_POSTGRES, REAL_POSTGRES_URL } from '../connectors/helpers.js';
import { NO_REAL_REDIS, REAL_REDIS_URL } from '../redis/helpers.js';
import { isChildOf, manifest, manifestDir, only, startUpstream, type Upstream } from './helpers.js';
import { SpanKind, StatusCode, startReceiver, type Receiver } from './otlp-receiver.js';

const skip = REAL_POSTGRES_URL === undefined ? NO_REAL_POSTGRES : REAL_REDIS_URL === undefined ? NO_REAL_REDIS : false;

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer within 15 s: GET ${url}`)));
    req.end();
  });
}

/** The JSON log line svc wrote to stdout for `url`, polled for (lines leave in batches, every 100 ms). */
async function logLineOf(served: Served, url: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const line = served
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.url === url);
    if (line !== undefined) return line;
    if (Date.now() > deadline) throw new Error(`no log line for ${url}:\n${served.stdout()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('tracing configured by the OTEL_* environment alone', { skip }, () => {
  let receiver: Receiver;
  let upstream: Upstream;
  let served: Served;
  let goneUrl: string;

  before(async () => {
    receiver = await startReceiver();
    upstream = await startUpstream();
    // A port listened on and closed again: the http step's connection to it is refused.
    const gone = await startUpstream();
    await gone.close();
    goneUrl = gone.url;
    served = await serve(await manifestDir(manifest(undefined)), [], {
      DATABASE_URL: REAL_POSTGRES_URL!,
      REDIS_URL: REAL_REDIS_URL!,
      UPSTREAM_URL: upstream.url,
      GONE_URL: goneUrl,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'tracing-test',
      // Exported within 50 ms of the end of a span, so the test waits for little.
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
  });

  after(async () => {
    kill(served);
    await upstream?.close();
    await receiver?.close();
  });

  test('a request with a traceparent continues its trace: server span, a span per step, client spans under their steps', async () => {
    const incomingTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const incomingParent = '00f067aa0ba902b7';
    const answer = await get(`${served.url}/users/7`, { traceparent: `00-${incomingTrace}-${incomingParent}-01`, tracestate: 'vendor=abc' });
    assert.equal(answer.status, 200, answer.body);
    assert.deepEqual(JSON.parse(answer.body).user, { id: 7, name: 'ada' });

    await receiver.waitFor((spans) => spans.some((s) => s.kind === SpanKind.SERVER && s.traceId === incomingTrace));
    const trace = receiver.spans.filter((s) => s.traceId === incomingTrace);
    const server = only(trace, (s) => s.kind === SpanKind.SERVER, 'server span');
    assert.equal(server.parentSpanId, incomingParent, "the server span's parent is the caller's span");
    assert.equal(server.traceState, 'vendor=abc', 'the tracestate is carried on');
    assert.equal(server.name, 'GET /users/{id}');
    assert.equal(server.attributes['http.request.method'], 'GET');
    assert.equal(server.attributes['http.route'], '/users/{id}');
    assert.equal(server.attributes['url.path'], '/users/7');
    assert.equal(server.attributes['url.scheme'], 'http');
    assert.equal(server.attributes['http.response.status_code'], 200);
    assert.equal(server.status.code, StatusCode.UNSET);
    assert.equal(server.resource['service.name'], 'tracing-test');
    assert.ok(server.endNs > server.startNs);

    // A span per step, each the server span's child.
    const steps = ['redis cached', 'sql user', 'http profile'].map((name) => only(trace, (s) => s.name === name, `step span ${name}`));
    for (const step of steps) {
      assert.equal(step.kind, SpanKind.INTERNAL);
      assert.ok(isChildOf(step, server), `${step.name} is a child of the server span, within its time`);
    }
    assert.equal(steps[1]!.attributes['svc.step.kind'], 'sql');
    assert.equal(steps[1]!.attributes['svc.step.name'], 'user');

    // Client spans under the step that sent them.
    const redis = only(trace, (s) => s.kind === SpanKind.CLIENT && s.attributes['db.system.name'] === 'redis', 'redis client span');
    assert.ok(isChildOf(redis, steps[0]!));
    assert.equal(redis.name, 'GET');
    assert.equal(redis.attributes['db.operation.name'], 'GET');
    assert.equal(redis.attributes['svc.connection'], 'redis.cache');

    const sql = only(trace, (s) => s.kind === SpanKind.CLIENT && s.attributes['db.system.name'] === 'postgresql', 'sql client span');
    assert.ok(isChildOf(sql, steps[1]!));
    assert.equal(sql.attributes['db.operation.name'], 'SELECT');
    const text = String(sql.attributes['db.query.text']);
    // The value travels as a parameter: the text has a placeholder, never the 7.
    assert.match(text, /^SELECT \$1::int AS id, 'ada' AS name$/);
    assert.equal(sql.attributes['db.response.returned_rows'], 1);

    const http = only(trace, (s) => s.kind === SpanKind.CLIENT && s.attributes['http.request.method'] === 'GET', 'http client span');
    assert.ok(isChildOf(http, steps[2]!));
    assert.equal(http.attributes['url.full'], `${upstream.url}/profile/7`);
    assert.equal(http.attributes['server.address'], '127.0.0.1');
    assert.equal(http.attributes['http.response.status_code'], 200);

    // The upstream was told the trace, with the http client span as its parent.
    const sent = upstream.received.at(-1)!;
    assert.equal(sent.traceparent, `00-${incomingTrace}-${http.spanId}-01`);
    assert.equal(sent.tracestate, 'vendor=abc');

    // The request's log line carries the trace and the server span.
    const line = await logLineOf(served, '/users/7');
    assert.equal(line.msg, 'request');
    assert.equal(line.trace_id, incomingTrace);
    assert.equal(line.span_id, server.spanId);
  });

  test('a request without a traceparent starts a trace of its own', async () => {
    const before = receiver.spans.length;
    const answer = await get(`${served.url}/ping`);
    assert.equal(answer.status, 200);
    await receiver.waitFor((spans) => spans.slice(before).some((s) => s.name === 'GET /ping'));
    const server = only(receiver.spans.slice(before), (s) => s.name === 'GET /ping', 'server span of /ping');
    assert.equal(server.parentSpanId, '');
    const step = only(receiver.spans, (s) => s.traceId === server.traceId && s.name === 'respond respond#1', 'the respond step');
    assert.ok(isChildOf(step, server));

    // A malformed traceparent (an all-zero trace id is invalid) is ignored: a new trace, not an error.
    const after = receiver.spans.length;
    const bad = await get(`${served.url}/ping`, { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` });
    assert.equal(bad.status, 200);
    await receiver.waitFor((spans) => spans.slice(after).some((s) => s.name === 'GET /ping'));
    const fresh = only(receiver.spans.slice(after), (s) => s.name === 'GET /ping', 'server span of the second /ping');
    assert.equal(fresh.parentSpanId, '');
    assert.notEqual(fresh.traceId, server.traceId);
  });

  test("a transaction's statements: each under its own step, the steps under the request", async () => {
    const answer = await get(`${served.url}/pair`);
    assert.equal(answer.status, 200, answer.body);
    assert.deepEqual(JSON.parse(answer.body), { n: 2 });
    await receiver.waitFor((spans) => spans.some((s) => s.name === 'GET /pair'));
    const server = only(receiver.spans, (s) => s.name === 'GET /pair', 'server span of /pair');
    const trace = receiver.spans.filter((s) => s.traceId === server.traceId);
    for (const name of ['first', 'second']) {
      const step = only(trace, (s) => s.name === `sql ${name}`, `step ${name}`);
      assert.ok(isChildOf(step, server), `${name} under the request`);
      const statement = only(trace, (s) => s.kind === SpanKind.CLIENT && s.parentSpanId === step.spanId, `the statement of ${name}`);
      assert.ok(isChildOf(statement, step));
      assert.equal(statement.attributes['db.system.name'], 'postgresql');
    }
    // BEGIN and COMMIT belong to no step: no span of their own.
    assert.equal(trace.filter((s) => s.kind === SpanKind.CLIENT).length, 2);
  });

  test('an sql error is recorded on the sql span, its step span and the 500 on the server span', async () => {
    const answer = await get(`${served.url}/broken`);
    assert.equal(answer.status, 500);
    await receiver.waitFor((spans) => spans.some((s) => s.name === 'GET /broken'));
    const server = only(receiver.spans, (s) => s.name === 'GET /broken', 'server span of /broken');
    const trace = receiver.spans.filter((s) => s.traceId === server.traceId);
    const step = only(trace, (s) => s.name === 'sql missing', 'sql step span');
    const sql = only(trace, (s) => s.kind === SpanKind.CLIENT, 'sql client span');
    assert.ok(isChildOf(step, server) && isChildOf(sql, step));

    assert.equal(sql.status.code, StatusCode.ERROR);
    assert.match(sql.status.message, /no_such_table_for_tracing/);
    assert.equal(sql.attributes['error.type'], '42P01', 'the SQLSTATE of an undefined table');
    const exception = sql.events.find((e) => e.name === 'exception');
    assert.ok(exception, 'the error is an exception event');
    assert.match(String(exception.attributes['exception.message']), /no_such_table_for_tracing/);
    assert.ok(exception.timeNs >= sql.startNs && exception.timeNs <= sql.endNs);

    assert.equal(step.status.code, StatusCode.ERROR, 'the step failed too');
    assert.equal(server.status.code, StatusCode.ERROR);
    assert.equal(server.attributes['http.response.status_code'], 500);
    assert.equal(server.attributes['error.type'], '500');

    const line = await logLineOf(served, '/broken');
    assert.equal(line.trace_id, server.traceId);
    assert.equal(line.span_id, server.spanId);
  });

  test('an upstream that refuses the connection: the error on the http client span and its step', async () => {
    const answer = await get(`${served.url}/down`);
    assert.equal(answer.status, 502, answer.body);
    await receiver.waitFor((spans) => spans.some((s) => s.name === 'GET /down'));
    const server = only(receiver.spans, (s) => s.name === 'GET /down', 'server span of /down');
    const trace = receiver.spans.filter((s) => s.traceId === server.traceId);
    const step = only(trace, (s) => s.name === 'http gone', 'http step span');
    const client = only(trace, (s) => s.kind === SpanKind.CLIENT, 'http client span');
    assert.ok(isChildOf(step, server) && isChildOf(client, step));
    assert.equal(client.status.code, StatusCode.ERROR);
    assert.equal(client.attributes['error.type'], 'bad-gateway', "the failure's category");
    assert.equal(client.attributes['http.response.status_code'], undefined, 'no response, no status');
    assert.ok(client.events.some((e) => e.name === 'exception'));
    assert.equal(step.status.code, StatusCode.ERROR);
    assert.equal(server.attributes['http.response.status_code'], 502);
    assert.equal(server.status.code, StatusCode.ERROR);
  });

  test('after a reload (SIGHUP) the new generation of the server traces too', async () => {
    served.child.kill('SIGHUP');
    await served.waitFor(/svc serve: reloaded/);
    const answer = await get(`${served.url}/ping`, { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
    assert.equal(answer.status, 200);
    await receiver.waitFor((spans) => spans.some((s) => s.traceId === '0af7651916cd43dd8448eb211c80319c' && s.name === 'GET /ping'));
    const server = only(receiver.spans, (s) => s.traceId === '0af7651916cd43dd8448eb211c80319c' && s.kind === SpanKind.SERVER, 'server span after the reload');
    assert.equal(server.parentSpanId, 'b7ad6b7169203331');
    only(receiver.spans, (s) => s.traceId === server.traceId && s.parentSpanId === server.spanId, 'its step span');
  });

  test("a stream's span lasts as long as the stream, with its items, bytes and how it ended", async () => {
    const answer = await get(`${served.url}/numbers.ndjson`);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.trim().split('\n').length, 5);
    await receiver.waitFor((spans) => spans.some((s) => s.name === 'GET /numbers.ndjson'));
    const server = only(receiver.spans, (s) => s.name === 'GET /numbers.ndjson', 'server span of the stream');
    const trace = receiver.spans.filter((s) => s.traceId === server.traceId);
    const stream = only(trace, (s) => s.name === 'stream ndjson', 'stream span');
    assert.ok(isChildOf(stream, server));
    assert.equal(stream.attributes['svc.stream.format'], 'ndjson');
    assert.equal(stream.attributes['svc.stream.items'], 5);
    assert.equal(stream.attributes['svc.stream.bytes'], Buffer.byteLength(answer.body));
    assert.equal(stream.attributes['svc.stream.ended'], 'complete');
    assert.equal(stream.status.code, StatusCode.UNSET);
    // The step that opened the cursor ended before the stream did: the stream outlives it.
    const step = only(trace, (s) => s.name === 'sql numbers', 'the cursor step');
    assert.ok(isChildOf(step, server) && step.endNs <= stream.endNs);
  });
});
