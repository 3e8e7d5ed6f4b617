/**
 * The hand-written baseline: the health endpoint as one would write it directly with Fastify,
 * no validation, no graph; no logging, or with `--log` one pino line per request
 * (bench/lib/baseline-logging.ts). It echoes `X-Request-Id` as svc does
 * (bench/lib/baseline-request-id.ts). Prints `listening <port>` once bound.
 */
import { fastify } from 'fastify';
import { announce, installRequestLog, loggerOptions } from '../lib/baseline-logging.js';
import { echoRequestId, requestIdOptions } from '../lib/baseline-request-id.js';

const app = fastify({ ...loggerOptions(), ...requestIdOptions() });
installRequestLog(app);
app.get('/api/v1/health', (request, reply) => {
  echoRequestId(request, reply).send({ status: 'ok', timestamp: Math.floor(Date.now() / 1000) });
});
await app.listen({ host: '127.0.0.1', port: 0 });
announce(app);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
