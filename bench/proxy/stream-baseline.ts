/**
 * The hand-written baseline of bench/proxy stream-rss: node:http and undici's `stream()`, which
 * writes the upstream body straight into the response (a Writable) with backpressure: what a
 * streaming proxy written by hand does. The upstream's status and Content-Type are passed on; a client
 * that goes away aborts the upstream request. UPSTREAM_URL names the upstream (with a trailing slash).
 * Prints `listening <port>` once bound; SIGTERM stops it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stream } from 'undici';

const upstream = new URL('blob', process.env.UPSTREAM_URL ?? 'http://127.0.0.1:9/');

const server = createServer((req, res) => {
  if (req.url !== '/blob') {
    res.statusCode = 404;
    res.end();
    return;
  }
  const controller = new AbortController();
  res.once('close', () => controller.abort());
  stream(upstream, { method: 'GET', signal: controller.signal, headersTimeout: 5_000, opaque: res }, ({ statusCode, headers, opaque }) => {
    const out = opaque as typeof res;
    out.writeHead(statusCode, { 'content-type': String(headers['content-type'] ?? 'application/octet-stream') });
    return out;
  }).catch(() => {
    // Before the head: a 502; after it, the transfer is cut short.
    if (!res.headersSent) {
      res.statusCode = 502;
      res.end();
    } else res.destroy();
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
