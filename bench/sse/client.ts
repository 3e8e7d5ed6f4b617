/**
 * The SSE clients of bench/sse, one process for all of them (not the server's: it must not share an
 * event loop with what it measures). Raw sockets, not node:http: with thousands of connections the
 * http client's parsing would be most of this process' work, and its delay would be counted as
 * delivery latency.
 *
 *   node dist/bench/sse/client.js --port <p> --clients <n> [--hold 11] [--messages 20] [--every 500]
 *     [--concurrency 200] [--publish-port <p>] [--warm 0]
 *
 * `--port` may list several servers (`--port 4001,4002`, replicas sharing one Redis channel: the
 * connections go to them in turn); the messages are POSTed to `--publish-port`, by default the
 * first of them (bench/sse/cross-replica.ts publishes through another replica than the clients').
 *
 * 1. Opens <n> connections to GET /events, at most <concurrency> waiting for their response head at
 *    a time; prints {"phase":"connected", clients, failed, ms}.
 * 2. Holds them <hold> seconds, counting heartbeats (`: heartbeat`); prints {"phase":"publishing",...}.
 * 3. POSTs <messages> messages to /publish, one every <every> ms, each `{"seq":k,"sent":<epoch ms>}`
 *    with the time it was sent (this process' clock, which also stamps every arrival). With
 *    `--warm <w>`, first <w> messages more (seq -w to -1), every <every> ms, not counted: the first
 *    message to thousands of clients runs the delivery path before V8 has optimized it, and sets
 *    the p99 of a short run alone (bench/sse README "Where the p99 comes from").
 * 4. Waits until every client has every message (at most 5 s after the last publish), then prints
 *    {"phase":"result", ...}: deliveries, latency p50/p99/max over all of them, heartbeats per
 *    client, connections that closed early; and leaves (closes every connection).
 *
 * A delivery's latency is its arrival as this process sees it (the `data` callback of its socket)
 * minus the `sent` in the message: it includes the time this process takes to get to that socket.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    'publish-port': { type: 'string' },
    clients: { type: 'string', default: '1000' },
    hold: { type: 'string', default: '11' },
    messages: { type: 'string', default: '20' },
    every: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '200' },
    warm: { type: 'string', default: '0' },
  },
});
const ports = (values.port ?? '').split(',').map(Number);
const publishPort = Number(values['publish-port'] ?? ports[0]);
const total = Number(values.clients);
const holdMs = Number(values.hold) * 1000;
const messageCount = Number(values.messages);
const everyMs = Number(values.every);
const concurrency = Number(values.concurrency);
const warmCount = Number(values.warm);

const REQUEST = Buffer.from('GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n');
const now = (): number => performance.timeOrigin + performance.now();
/** One phase line, with this process' CPU time so far (ms): its own share of what it measures. */
const emit = (message: Record<string, unknown>): void => {
  const { user, system } = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ ...message, cpuMs: (user + system) / 1000 })}\n`);
};

interface Conn {
  socket: Socket;
  heartbeats: number;
  messages: number;
  closedEarly: boolean;
}

const conns: Conn[] = [];
/** Latency of every delivery (ms), in arrival order; and the highest per message. */
const latencies: number[] = [];
const worstPerMessage = new Array<number>(messageCount + 1).fill(0);
/** Every delivery's latency, per message (index = seq). */
const perMessage = Array.from({ length: messageCount + 1 }, (): number[] => []);
let leaving = false;

/** Scans the complete events of a connection's text (a blank line ends one); the rest stays pending. */
function scan(conn: Conn, text: string): string {
  let start = 0;
  for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n', start)) {
    const data = text.indexOf('data: ', start);
    if (data >= 0 && data < end) {
      const arrived = now();
      // The frame is `data: {"seq":k,"sent":t}`: read both numbers without a JSON parse.
      const seqAt = text.indexOf('"seq":', data) + 6;
      const sentAt = text.indexOf('"sent":', data) + 7;
      const seq = Number.parseInt(text.slice(seqAt, text.indexOf(',', seqAt)), 10);
      if (seq < 1) {
        start = end + 2;
        continue;
      }
      const latency = arrived - Number.parseFloat(text.slice(sentAt, end));
      latencies.push(latency);
      if (latency > worstPerMessage[seq]!) worstPerMessage[seq] = latency;
      perMessage[seq]?.push(latency);
      conn.messages++;
    } else if (text.lastIndexOf(': heartbeat', end) >= start) conn.heartbeats++;
    start = end + 2;
  }
  return text.slice(start);
}

/** Opens one connection; resolves true once its 200 head has arrived, false on a failure or after 15 s. */
function open(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const conn: Conn = { socket, heartbeats: 0, messages: 0, closedEarly: false };
    let pending = '';
    let headed = false;
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, 15_000);
    socket.on('connect', () => socket.write(REQUEST));
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      if (!headed) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        headed = true;
        clearTimeout(timer);
        const ok = pending.startsWith('HTTP/1.1 200');
        pending = pending.slice(end + 4);
        if (!ok) {
          socket.destroy();
          resolve(false);
          return;
        }
        conns.push(conn);
        resolve(true);
      }
      pending = scan(conn, pending);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      if (!leaving && headed) conn.closedEarly = true;
      clearTimeout(timer);
      resolve(false);
    });
  });
}

function publish(seq: number): Promise<number> {
  const body = JSON.stringify({ seq, sent: now() });
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: publishPort,
        method: 'POST',
        path: '/publish',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!;
}

function spread(list: readonly number[]): { min: number; median: number; max: number } {
  const sorted = [...list].sort((a, b) => a - b);
  return { min: sorted[0] ?? NaN, median: sorted[sorted.length >> 1] ?? NaN, max: sorted[sorted.length - 1] ?? NaN };
}

const t0 = performance.now();
let failed = 0;
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(concurrency, total) }, async () => {
    while (next < total) {
      const port = ports[next % ports.length]!;
      next++;
      if (!(await open(port))) failed++;
    }
  }),
);
emit({ phase: 'connected', clients: conns.length, failed, ms: performance.now() - t0 });

await new Promise((r) => setTimeout(r, holdMs));
// The warm messages go before the publishing phase starts, so its CPU is the measured messages' only.
for (let seq = -warmCount; seq < 0; seq++) {
  await publish(seq);
  await new Promise((r) => setTimeout(r, everyMs));
}
emit({ phase: 'publishing', heartbeats: spread(conns.map((c) => c.heartbeats)), closedEarly: conns.filter((c) => c.closedEarly).length });

const statuses: Promise<number>[] = [];
for (let seq = 1; seq <= messageCount; seq++) {
  statuses.push(publish(seq));
  if (seq < messageCount) await new Promise((r) => setTimeout(r, everyMs));
}
const published = await Promise.all(statuses);
const expected = conns.length * messageCount;
const deadline = performance.now() + 5000;
while (latencies.length < expected && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));

const sorted = [...latencies].sort((a, b) => a - b);
emit({
  phase: 'result',
  clients: conns.length,
  expected,
  deliveries: latencies.length,
  publishFailures: published.filter((s) => s !== 200).length,
  p50: percentile(sorted, 0.5),
  p99: percentile(sorted, 0.99),
  max: sorted[sorted.length - 1] ?? NaN,
  worstPerMessage: spread(worstPerMessage.slice(1)),
  // Per message, in publishing order: the median and the highest latency of its deliveries.
  messages: perMessage.slice(1).map((list) => {
    const ordered = [...list].sort((a, b) => a - b);
    return [Math.round(percentile(ordered, 0.5)), Math.round(ordered[ordered.length - 1] ?? NaN)];
  }),
  heartbeats: spread(conns.map((c) => c.heartbeats)),
  closedEarly: conns.filter((c) => c.closedEarly).length,
});
leaving = true;
for (const conn of conns) conn.socket.destroy();
