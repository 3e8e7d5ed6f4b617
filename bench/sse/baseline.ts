/**
 * The hand-written baseline of bench/sse: a plain node:http SSE server that keeps a Set of open
 * responses. `GET /events` sends the event-stream head (the same headers as svc) and adds the
 * response to the Set until it closes; `POST /publish` takes the body's text and writes
 * `data: <text>\n\n` to every response in the Set. One timer writes `: heartbeat\n\n` to all of them
 * every 5 s (svc's heartbeat = "5s" in bench/sse/manifest).
 *
 * With `--redis <url>` it goes through Redis as a hand-written service sharing a channel would: the
 * publish is a PUBLISH on one ioredis connection, and a second one, SUBSCRIBEd to the channel, writes
 * each message it hears to the Set. Without it the publish writes to the Set directly (the
 * counterpart of svc's in-process `memory:` store).
 *
 * Prints `listening <port>` once bound to 127.0.0.1.
 */
import { createServer, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';

const { values } = parseArgs({ options: { redis: { type: 'string' } } });

const CHANNEL = 'events';
const HEARTBEAT_MS = 5000;
const clients = new Set<ServerResponse>();

function broadcast(text: string): number {
  const frame = `data: ${text}\n\n`;
  for (const res of clients) res.write(frame);
  return clients.size;
}

let publish: (text: string) => Promise<number> = async (text) => broadcast(text);
let closeRedis = (): void => {};
if (values.redis !== undefined) {
  const publisher = new Redis(values.redis);
  const subscriber = new Redis(values.redis);
  await subscriber.subscribe(CHANNEL);
  subscriber.on('message', (_channel: string, text: string) => broadcast(text));
  publish = (text) => publisher.publish(CHANNEL, text);
  closeRedis = () => {
    publisher.disconnect();
    subscriber.disconnect();
  };
}

setInterval(() => {
  for (const res of clients) res.write(': heartbeat\n\n');
}, HEARTBEAT_MS).unref();

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/events') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    res.flushHeaders();
    clients.add(res);
    res.on('close', () => clients.delete(res));
    return;
  }
  if (req.method === 'POST' && req.url === '/publish') {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      publish(body).then(
        (receivers) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ receivers })),
        (error: unknown) => res.writeHead(503).end(String(error)),
      );
    });
    return;
  }
  res.writeHead(404).end();
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => {
  closeRedis();
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
