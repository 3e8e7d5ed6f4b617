/**
 * The floor under svc's cold start (cold-start.ts `--cases floor`): the quickstart's health answer
 * (`GET /api/v1/health`, `{"status":"ok","timestamp":...}`) from a process that does nothing else,
 * so what svc adds to Node and to Fastify can be told apart from what they cost themselves.
 *
 *     node dist/bench/users/floor.js node PORT      # node:http alone
 *     node dist/bench/users/floor.js fastify PORT   # a hand-written Fastify hello world, pino logging one line per request as svc does
 *
 * Fastify is imported only in its case, so the `node` case loads nothing but Node's own modules.
 */
import { createServer } from 'node:http';

const [kind, portText] = process.argv.slice(2);
const port = Number(portText);
if (!(kind === 'node' || kind === 'fastify') || !Number.isInteger(port)) {
  process.stderr.write('usage: floor.js node|fastify PORT\n');
  process.exit(2);
}

const health = () => ({ status: 'ok', timestamp: Math.floor(Date.now() / 1000) });

if (kind === 'node') {
  createServer((_request, response) => {
    response.setHeader('content-type', 'application/json; charset=utf-8');
    response.end(JSON.stringify(health()));
  }).listen(port, '127.0.0.1');
} else {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: true });
  app.get('/api/v1/health', async () => health());
  await app.listen({ port, host: '127.0.0.1' });
}
