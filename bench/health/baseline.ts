/**
 * The hand-written baseline: the health endpoint as one would write it directly with Fastify,
 * no logging, no validation, no graph. Prints `listening <port>` once bound.
 */
import { fastify } from 'fastify';

const app = fastify({ logger: false });
app.get('/api/v1/health', (_request, reply) => {
  reply.send({ status: 'ok', timestamp: Math.floor(Date.now() / 1000) });
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
