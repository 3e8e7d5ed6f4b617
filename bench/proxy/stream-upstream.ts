/**
 * The upstream of bench/proxy stream-rss: plain node:http answering `GET /blob` with BYTES bytes
 * (default 1 GiB) of one 64 KiB buffer written again and again, each write only once the socket took
 * the previous one, so the body is never held in memory here either. With CHUNKED=1 the body is sent
 * with chunked transfer coding instead of a Content-Length. Prints `listening <port>` once bound;
 * SIGTERM stops it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const total = Number(process.env.BYTES ?? 1024 ** 3);
const chunked = process.env.CHUNKED === '1';
const chunk = Buffer.alloc(64 * 1024, 'svc stream bench ');

const server = createServer((req, res) => {
  if (req.url !== '/blob') {
    res.statusCode = 404;
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/octet-stream', ...(chunked ? {} : { 'content-length': String(total) }) });
  let written = 0;
  const pump = (): void => {
    while (written < total && !res.destroyed) {
      const piece = total - written >= chunk.length ? chunk : chunk.subarray(0, total - written);
      written += piece.length;
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
