/**
 * The hand-written baseline of bench/proxy: Fastify and an undici Pool to the upstream's origin
 * (keep-alive), doing the same work as svc's http step: a GET with the request's signal, the body
 * read and parsed as JSON, the parsed document sent as the JSON response. With `--raw` the body is
 * read as text and sent untouched (no parse, no serialization: the fastest hand-written proxy, which
 * could not shape the answer). No logging, or with `--log` one pino line per request
 * (bench/lib/baseline-logging.ts). It echoes `X-Request-Id` as svc does (bench/lib/baseline-request-id.ts). UPSTREAM_URL names the upstream (with a trailing slash). Prints
 * `listening <port>` once bound.
 */
import { fastify } from 'fastify';
import { Pool } from 'undici';
import { announce, installRequestLog, loggerOptions } from '../lib/baseline-logging.js';
import { echoRequestId, requestIdOptions } from '../lib/baseline-request-id.js';

const raw = process.argv.includes('--raw');
const upstream = new URL('catalogue', process.env.UPSTREAM_URL ?? 'http://127.0.0.1:9/');
const pool = new Pool(upstream.origin, { keepAliveTimeout: 10_000 });

const app = fastify({ ...loggerOptions(), ...requestIdOptions() });
installRequestLog(app);

app.get('/api/v1/catalogue', async (request, reply) => {
  echoRequestId(request, reply);
  // Cancelled when the client goes away, as svc's step is.
  const controller = new AbortController();
  request.raw.once('close', () => controller.abort());
  const response = await pool.request({ method: 'GET', path: upstream.pathname, signal: controller.signal, headersTimeout: 5_000, bodyTimeout: 5_000 });
  const document = raw ? await response.body.text() : await response.body.json();
  if (response.statusCode >= 400) return reply.code(502).send({ title: 'Bad Gateway' });
  if (raw) return reply.type('application/json; charset=utf-8').send(document);
  return reply.send(document);
});

await app.listen({ host: '127.0.0.1', port: 0 });
announce(app);
process.on('SIGTERM', () => void Promise.all([app.close(), pool.close()]).then(() => process.exit(0)));
