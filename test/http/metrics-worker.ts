/**
 * A worker of the cluster test (metrics-cluster.test.ts): the service of the manifest below, with
 * metrics on, served on the port the cluster shares; it says when it listens, and how many requests
 * it logged when asked.
 */
import { serveWithTelemetry } from './metrics-helpers.js';

const s = await serveWithTelemetry(`
server {
  metrics = "/metrics"
}
endpoint "GET /a" {
  pipeline {
    respond {
      body = "a"
    }
  }
}
`);
const address = await s.app.listen({ host: '127.0.0.1', port: 0 });
process.on('message', (message: { type?: string }) => {
  if (message?.type === 'served?') process.send!({ type: 'served', count: s.log.requests().filter((l) => l.url === '/a').length });
});
process.on('SIGTERM', () => {
  void s.close().then(() => process.exit(0));
});
process.send!({ type: 'listening', port: Number(new URL(address).port) });
