/**
 * The hand-written baseline of GET /api/v1/search (SPEC.md §4.4, examples/validation/search.hcl) as one
 * would write it directly with Fastify: the same constraints as Fastify's own route schema (headers and
 * querystring, compiled by Fastify's ajv with its default options: type coercion, defaults injected,
 * first error only), ajv-formats for `uuid`, and the same body `{query, limit, sort}`. No logging, or
 * with `--log` one pino line per request (bench/lib/baseline-logging.ts). It echoes
 * `X-Request-Id` as svc does (bench/lib/baseline-request-id.ts).
 *
 * A validation failure answers 422 with a problem body listing the failed constraints (Fastify's
 * default would be a 400 of its own shape), so the informational invalid-request round compares like
 * with like. Prints `listening <port>` once bound.
 */
import { fastify, type FastifyError } from 'fastify';
import type { Plugin } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { announce, installRequestLog, loggerOptions } from '../lib/baseline-logging.js';
import { echoRequestId, requestIdOptions } from '../lib/baseline-request-id.js';

// ajv-formats is CommonJS: under NodeNext the default import is `module.exports`, whose `.default` is
// the plugin. Its declared options type is narrower than what Fastify's plugin slot declares, hence the
// cast to the slot's shape.
const addFormats = addFormatsModule.default as unknown as Plugin<unknown>;

const app = fastify({
  ...loggerOptions(),
  ...requestIdOptions(),
  ajv: { plugins: [[addFormats, { formats: ['uuid'] }]] },
});

installRequestLog(app);

app.setErrorHandler((error: FastifyError, request, reply) => {
  echoRequestId(request, reply);
  if (error.validation === undefined) {
    reply.code(500).send({ message: 'internal error' });
    return;
  }
  reply
    .code(422)
    .header('content-type', 'application/problem+json')
    .send(
      JSON.stringify({
        type: 'urn:svc:error:validation-error',
        title: 'Unprocessable Entity',
        status: 422,
        detail: 'Request payload failed schema validation constraints',
        instance: request.url.split('?')[0],
        invalid_params: error.validation.map((e) => ({
          name: e.instancePath.slice(1) || String((e.params as { missingProperty?: string }).missingProperty ?? ''),
          reason: e.message ?? 'invalid',
        })),
      }),
    );
});

interface Search {
  Headers: { 'x-api-key': string };
  Querystring: { q: string; limit: number; sort: 'asc' | 'desc' };
}

app.get<Search>(
  '/api/v1/search',
  {
    schema: {
      headers: {
        type: 'object',
        properties: { 'x-api-key': { type: 'string', format: 'uuid' } },
        required: ['x-api-key'],
      },
      querystring: {
        type: 'object',
        properties: {
          q: { type: 'string', minLength: 2 },
          limit: { type: 'integer', default: 20, minimum: 1, maximum: 100 },
          sort: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
        },
        required: ['q'],
      },
    },
  },
  (request, reply) => {
    const { q, limit, sort } = request.query;
    echoRequestId(request, reply).send({ query: q, limit, sort });
  },
);

await app.listen({ host: '127.0.0.1', port: 0 });
announce(app);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
