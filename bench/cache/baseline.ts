/**
 * The hand-written baseline of the cache hit of GET /api/v1/products/{sku} (SPEC.md §4.4,
 * bench/cache/manifest) as one would write it directly with Fastify and ioredis: one ioredis client
 * (its defaults: one pipelined connection), a route schema for the path parameter, GET of
 * `product:<sku>`, and on a hit the cached product with `X-Cache: HIT`. With `--parse` the cached
 * JSON is parsed and the object sent (Fastify serializes it again): the same work as svc, which
 * decodes JSON values (DECISIONS.md §1). Without it the cached text is sent as it is, the fastest
 * form. The miss path is not measured and not written: a miss answers 404. No logging, or with
 * `--log` one pino line per request (bench/lib/baseline-logging.ts). It echoes
 * `X-Request-Id` as svc does (bench/lib/baseline-request-id.ts).
 *
 * REDIS_URL names the server (the one svc serves from). Prints `listening <port>` once bound.
 */
import { fastify } from 'fastify';
import { Redis } from 'ioredis';
import { announce, installRequestLog, loggerOptions } from '../lib/baseline-logging.js';
import { echoRequestId, requestIdOptions } from '../lib/baseline-request-id.js';

const parse = process.argv.includes('--parse');
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
await redis.ping();

const app = fastify({ ...loggerOptions(), ...requestIdOptions() });
installRequestLog(app);

interface BySku {
  Params: { sku: string };
}

app.get<BySku>(
  '/api/v1/products/:sku',
  { schema: { params: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] } } },
  async (request, reply) => {
    echoRequestId(request, reply);
    const cached = await redis.get(`product:${request.params.sku}`);
    if (cached === null) return reply.code(404).send({ title: 'not cached' });
    if (parse) return reply.header('x-cache', 'HIT').send(JSON.parse(cached));
    return reply.header('x-cache', 'HIT').type('application/json').send(cached);
  },
);

await app.listen({ host: '127.0.0.1', port: 0 });
announce(app);
process.on('SIGTERM', () => void app.close().then(() => redis.quit().then(() => process.exit(0))));
