/**
 * The hand-written baseline of bench/compress: Fastify with @fastify/compress (gzip only, its default
 * 1 KiB threshold) answering the same 64 KiB JSON body as bench/compress/manifest, serialized once at
 * start as svc does at boot. No logging, or with `--log` one pino line per request
 * (bench/lib/baseline-logging.ts); it echoes `X-Request-Id` as svc does. Prints `listening <port>`.
 */
import compress from '@fastify/compress';
import { fastify } from 'fastify';
import { announce, installRequestLog, loggerOptions } from '../lib/baseline-logging.js';
import { echoRequestId, requestIdOptions } from '../lib/baseline-request-id.js';

const items = Array.from({ length: 603 }, (_, i) => ({
  id: i,
  name: `item ${i}`,
  email: `user${i}@example.com`,
  active: true,
  tags: ['alpha', 'beta'],
  score: i * 3,
}));
const body = JSON.stringify({ items });

const app = fastify({ ...loggerOptions(), ...requestIdOptions() });
installRequestLog(app);
await app.register(compress, { encodings: ['gzip'] });
app.get('/catalog', (request, reply) => {
  echoRequestId(request, reply).type('application/json; charset=utf-8').send(body);
});
await app.listen({ host: '127.0.0.1', port: 0 });
announce(app);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
