/**
 * The hand-written baseline of bench/h2: Fastify's own HTTP/2 server over TLS (HTTP/1.1 allowed, as
 * svc's), answering GET /health with the same body svc's manifest answers. Nothing else: no request
 * ids, no log line; what a minimal Fastify HTTP/2 service does.
 *
 *     node dist/bench/h2/baseline.js <port> <cert.pem> <key.pem>
 */
import { readFileSync } from 'node:fs';
import { fastify } from 'fastify';

const [port, certFile, keyFile] = process.argv.slice(2);
const app = fastify({ http2: true, https: { allowHTTP1: true, cert: readFileSync(certFile!), key: readFileSync(keyFile!) }, logger: false });
app.get('/health', async () => ({ status: 'ok' }));
await app.listen({ host: '127.0.0.1', port: Number(port) });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
