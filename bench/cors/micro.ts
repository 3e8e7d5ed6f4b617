/**
 * The CPU CORS adds to one answer, measured alone: what src/http/cors.ts does per request (the origin
 * matched, the headers stored on Fastify's reply) plus what it makes the direct write of a plain JSON
 * answer do (reply.ts: the reply's headers taken into the head, more header lines for Node's
 * `writeHead` to check and write), on a real Fastify reply (taken from a request served by a Fastify
 * app) and real `ServerResponse` objects, against the same head without CORS. A last variant is the
 * first design, kept for the record: the headers set on Node's response (`res.setHeader`), which
 * `writeHead` then merges header by header. Run compiled (bench/cors/run.ts builds first):
 *
 *     node dist/bench/cors/micro.js [--rounds 9] [--iterations 200000]
 *
 * Each variant runs `iterations` times per round, rounds alternate the variants' order, and the
 * figure is the median over rounds of process CPU time (user + system) per iteration; the cost of
 * CORS is a variant's median minus the baseline's. Prints one JSON line at the end.
 */
import { get, IncomingMessage, type OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { parseArgs } from 'node:util';
import { fastify, type FastifyReply, type FastifyRequest } from 'fastify';
import { createLogger } from '../../src/http/index.js';
import { applyCors, type CorsPolicy, compileCors } from '../../src/http/cors.js';
import type { CorsModel } from '../../src/model/index.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '9' }, iterations: { type: 'string', default: '200000' } } });
const rounds = Number(values.rounds);
const iterations = Number(values.iterations);

const range = { filename: 'bench', start: { line: 1, column: 1, byte: 0 }, end: { line: 1, column: 1, byte: 0 } };
/** examples/cors's kind of policy: credentials, a few exact origins and a pattern. */
const model: CorsModel = {
  allowedOrigins: ['https://app.example.com', 'https://admin.example.com', 'https://*.example.org'],
  allowedMethods: '*',
  allowedHeaders: ['content-type'],
  exposedHeaders: [],
  allowCredentials: true,
  maxAgeSeconds: 600,
  range,
};
const policy = compileCors(model, createLogger({ level: 'info', stream: { write: () => true } }));
const socket = new Socket();
const body = '{"status":"ok"}';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A real Fastify request and reply for `origin`, over a real socket (so that the reply's `raw` is
 * Node's `ServerResponse`, as in svc, not an injection's stand-in): one request served, kept.
 */
async function served(origin: string | undefined): Promise<{ req: IncomingMessage; request: FastifyRequest; reply: FastifyReply }> {
  const app = fastify();
  let kept: { request: FastifyRequest; reply: FastifyReply } | undefined;
  app.get('/ping', (request, reply) => {
    kept = { request, reply };
    reply.header('x-request-id', 'bench-1');
    return { status: 'ok' };
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((done, fail) => {
    get(`${url}/ping`, (res) => res.resume().on('end', done)).on('error', fail);
  });
  await app.close();
  // Set here: Node would refuse the 100 KB one on the wire (431), and svc's matcher is what is measured.
  if (origin !== undefined) kept!.request.headers.origin = origin;
  // What the next request's reply starts from: the request id only (handler.ts sets it first).
  for (const name of Object.keys(kept!.reply.getHeaders())) if (name !== 'x-request-id') kept!.reply.removeHeader(name);
  const req = new IncomingMessage(socket);
  if (origin !== undefined) req.headers.origin = origin;
  return { req, ...kept! };
}

type How = 'none' | 'constant' | 'reply' | 'node';

/** The head reply.ts writes for a plain JSON answer: without CORS, with CORS on the reply (today), on Node's response (the first design). */
function answer(req: IncomingMessage, request: FastifyRequest, reply: FastifyReply, how: How): ServerResponse {
  const res = new ServerResponse(req);
  if (how === 'none') {
    res.writeHead(200, { 'x-request-id': request.id, 'content-type': JSON_TYPE, 'content-length': body.length });
  } else if (how === 'constant') {
    res.writeHead(200, {
      'x-request-id': request.id,
      vary: 'Origin',
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'X-Request-Id',
      'content-type': JSON_TYPE,
      'content-length': body.length,
    });
  } else if (how === 'reply') {
    applyCors(policy, request, reply);
    res.writeHead(200, directHeadWithCors(policy, request, JSON_TYPE, body.length));
  } else {
    applyCorsOnNode(request, res);
    res.writeHead(200, { 'x-request-id': request.id, 'content-type': JSON_TYPE, 'content-length': body.length });
  }
  return res;
}

/**
 * The head of a plain JSON answer written on Node's response (reply.ts until 2026-11-29, when svc
 * went back to Fastify's `send`: bench/health README "Public APIs first") on a route with CORS: the
 * request id, the CORS headers applyCors set on the reply (decided again here from the policy: a
 * literal of fixed shape is cheaper than reading them back, since Fastify looks a missing header up
 * on Node's response too), the body's type and length. Measured in bench/cors.
 */
function directHeadWithCors(policy: CorsPolicy, request: FastifyRequest, contentType: string, length: number): OutgoingHttpHeaders {
  const id = request.id;
  if (policy.wildcard) {
    return {
      'x-request-id': id,
      'access-control-allow-origin': '*',
      'access-control-expose-headers': policy.exposed,
      'content-type': contentType,
      'content-length': length,
    };
  }
  const origin = request.headers.origin;
  if (origin === undefined || !policy.allows(origin)) return { 'x-request-id': id, vary: 'Origin', 'content-type': contentType, 'content-length': length };
  if (!policy.credentials) {
    return {
      'x-request-id': id,
      vary: 'Origin',
      'access-control-allow-origin': origin,
      'access-control-expose-headers': policy.exposed,
      'content-type': contentType,
      'content-length': length,
    };
  }
  return {
    'x-request-id': id,
    vary: 'Origin',
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': policy.exposed,
    'content-type': contentType,
    'content-length': length,
  };
}

/** The first design's per-request work: the same headers as applyCors, set on Node's response. */
function applyCorsOnNode(request: FastifyRequest, res: ServerResponse): void {
  res.setHeader('vary', 'Origin');
  const origin = request.headers.origin;
  if (origin === undefined || !policy.allows(origin)) return;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('access-control-allow-credentials', 'true');
  res.setHeader('access-control-expose-headers', policy.exposed);
}

const variants: Record<string, { origin: string | undefined; how: How }> = {
  'no CORS': { origin: 'https://app.example.com', how: 'none' },
  "no CORS, the same 4 lines as constants (Node's own cost)": { origin: 'https://app.example.com', how: 'constant' },
  'CORS, exact origin allowed': { origin: 'https://app.example.com', how: 'reply' },
  'CORS, pattern origin allowed': { origin: 'https://shop.eu.example.org', how: 'reply' },
  'CORS, no Origin (same-origin request)': { origin: undefined, how: 'reply' },
  'CORS, origin refused': { origin: 'https://evil.example.net', how: 'reply' },
  'CORS, 100 KB Origin refused': { origin: `https://${'a'.repeat(100_000)}.example.org`, how: 'reply' },
  'first design: on Node, exact origin allowed': { origin: 'https://app.example.com', how: 'node' },
};

const prepared = new Map<string, Awaited<ReturnType<typeof served>>>();
for (const [name, { origin }] of Object.entries(variants)) prepared.set(name, await served(origin));

// Every variant's response keeps its head text: the last one is checked, so nothing is optimised away.
let sink = 0;
function run(name: string): number {
  const { how } = variants[name]!;
  const { req, request, reply } = prepared.get(name)!;
  const before = process.cpuUsage();
  for (let i = 0; i < iterations; i++) sink += (answer(req, request, reply, how) as unknown as { _header: string })._header.length;
  const used = process.cpuUsage(before);
  return ((used.user + used.system) * 1000) / iterations; // ns per iteration
}

const names = Object.keys(variants);
for (const name of names) run(name); // warm-up
const samples = new Map<string, number[]>(names.map((n) => [n, []]));
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? names : [...names].reverse();
  for (const name of order) samples.get(name)!.push(run(name));
}

const median = (list: number[]): number => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const base = median(samples.get('no CORS')!);
const results: Record<string, { ns: number; added: number }> = {};
for (const name of names) {
  const ns = median(samples.get(name)!);
  results[name] = { ns: Math.round(ns), added: Math.round(ns - base) };
  process.stdout.write(`${name.padEnd(56)} ${ns.toFixed(0).padStart(6)} ns per answer   CORS adds ${(ns - base).toFixed(0).padStart(5)} ns\n`);
}
if (sink === 0) throw new Error('no head was written');
process.stdout.write(`${JSON.stringify({ rounds, iterations, results })}\n`);
