/**
 * The upstream both proxies call: plain node:http answering `GET /catalogue` with one 64 KiB JSON
 * document (built once, sent as the same bytes every time, keep-alive), so what is measured is the
 * proxies, not this. Prints `listening <port>` once bound; SIGTERM stops it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** About 64 KiB of JSON: a catalogue page of products. */
export function catalogue(): { items: Record<string, unknown>[] } {
  const items: Record<string, unknown>[] = [];
  for (let i = 0; JSON.stringify({ items }).length < 64 * 1024 - 200; i++) {
    items.push({
      sku: `SKU-${String(i).padStart(5, '0')}`,
      name: `Product number ${i}`,
      price_cents: 100 + ((i * 37) % 9900),
      in_stock: i % 3 !== 0,
      tags: ['catalogue', i % 2 === 0 ? 'even' : 'odd'],
    });
  }
  return { items };
}

const body = Buffer.from(JSON.stringify(catalogue()));

const server = createServer((req, res) => {
  if (req.url !== '/catalogue') {
    res.statusCode = 404;
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
// Longer than any round: the proxies' pooled connections are never dropped under them.
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port} ${body.length}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
