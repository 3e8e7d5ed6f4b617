/**
 * The hand-written baseline of POST /api/v1/transform (SPEC.md §4.4, examples/validation/transform.hcl
 * and transform.star) as one would write it directly with Fastify: the same body schema as Fastify's
 * route schema (`prefix` string, default "item"; `tags` list of strings, default []; undeclared
 * properties allowed, as svc's), compiled by Fastify's ajv with its default options (defaults
 * injected, type coercion, first error only), and the script's logic in JavaScript on the event loop:
 * each tag trimmed and lower-cased, empty ones dropped, the rest prefixed; `{count, tags}`. No
 * logging, or with `--log` one pino line per request (bench/lib/baseline-logging.ts). It echoes
 * `X-Request-Id` as svc does (bench/lib/baseline-request-id.ts). Prints
 * `listening <port>` once bound.
 */
import { fastify } from 'fastify';
import { announce, installRequestLog, loggerOptions } from '../lib/baseline-logging.js';
import { echoRequestId, requestIdOptions } from '../lib/baseline-request-id.js';

const app = fastify({ ...loggerOptions(), ...requestIdOptions() });
installRequestLog(app);

interface Transform {
  Body: { prefix: string; tags: string[] };
}

app.post<Transform>(
  '/api/v1/transform',
  {
    schema: {
      body: {
        type: 'object',
        properties: {
          prefix: { type: 'string', default: 'item' },
          tags: { type: 'array', items: { type: 'string' }, default: [] },
        },
      },
    },
  },
  (request, reply) => {
    const { prefix, tags } = request.body;
    const out: string[] = [];
    for (const tag of tags) {
      // Python's str.strip() and lower(), as the script's: ASCII white space and Unicode lower case
      const t = tag.trim().toLowerCase();
      if (t !== '') out.push(`${prefix}:${t}`);
    }
    echoRequestId(request, reply).send({ count: out.length, tags: out });
  },
);

await app.listen({ host: '127.0.0.1', port: 0 });
announce(app);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
