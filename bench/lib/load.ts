/**
 * A bounded keep-alive load generator, run as its own process so it does not share a core with the
 * server it measures. Raw sockets instead of node:http: the http client parses more than it must and
 * would be the bottleneck, hiding the difference between two servers.
 *
 * Usage: node dist/bench/lib/load.js <url> <connections> <seconds> [--status <code>] [--header 'name: value']...
 *   [--method POST --body '<json>'] (a body is sent as application/json)
 * Prints one JSON line: { requests, errors, seconds, rps, p50, p99 } (latencies in milliseconds).
 * Each connection sends one request, waits for the whole response, then sends the next. A response
 * whose status is not the expected one (`--status`, default any 2xx) counts as an error.
 */
import { connect, type Socket } from 'node:net';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    status: { type: 'string' },
    header: { type: 'string', multiple: true, default: [] },
    method: { type: 'string', default: 'GET' },
    body: { type: 'string' },
  },
});
const [url, connArg = '16', secondsArg = '3'] = positionals;
if (!url) {
  process.stderr.write('usage: load.js <url> [connections] [seconds] [--status 200] [--header "name: value"]...\n');
  process.exit(2);
}
const target = new URL(url);
const connections = Number(connArg);
const durationMs = Number(secondsArg) * 1000;
const extraHeaders = values.header.map((h) => `${h}\r\n`).join('');
const body = values.body === undefined ? '' : values.body;
const bodyHeaders = values.body === undefined ? '' : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
const request = Buffer.from(
  `${values.method} ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: keep-alive\r\n${extraHeaders}${bodyHeaders}\r\n${body}`,
);
const expected = `HTTP/1.1 ${values.status ?? '2'}`;

/** Latencies in microseconds, bucketed (1 us resolution below 100 ms): percentiles without sorting millions. */
const buckets = new Uint32Array(100_000);
let overflow = 0;
let requests = 0;
let errors = 0;
let running = true;

function record(us: number): void {
  if (us < buckets.length) buckets[us]!++;
  else overflow++;
}

function percentile(p: number): number {
  const total = requests;
  let seen = 0;
  for (let i = 0; i < buckets.length; i++) {
    seen += buckets[i]!;
    if (seen >= total * p) return i / 1000;
  }
  return buckets.length / 1000;
}

/** Where a chunked body starting at `from` ends (after its last chunk and trailer), or -1 while incomplete. */
function chunkedEnd(buffer: Buffer, from: number): number {
  let at = from;
  for (;;) {
    const line = buffer.indexOf('\r\n', at);
    if (line < 0) return -1;
    const size = Number.parseInt(buffer.subarray(at, line).toString('latin1'), 16);
    if (size === 0) {
      // No trailers are sent by the servers measured: the last chunk's line, then an empty line.
      return buffer.length >= line + 4 ? line + 4 : -1;
    }
    at = line + 2 + size + 2;
    if (buffer.length < at) return -1;
  }
}

function drive(): Promise<void> {
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(target.port), target.hostname);
    socket.setNoDelay(true);
    let buffer: Buffer = Buffer.alloc(0);
    let sentAt = 0;
    const send = (): void => {
      if (!running) {
        socket.end();
        return;
      }
      sentAt = performance.now();
      socket.write(request);
    };
    socket.on('connect', send);
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      // A response is complete when its headers and Content-Length bytes of body have arrived, or, in
      // chunked coding (a compressed stream, @fastify/compress's answers), its last chunk.
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        let length = m ? Number(m[1]) : 0;
        if (m === null && /\r\ntransfer-encoding:\s*chunked/i.test(head)) {
          const last = chunkedEnd(buffer, end + 4);
          if (last < 0) return;
          length = last - (end + 4);
        }
        if (buffer.length < end + 4 + length) return;
        if (!head.startsWith(expected)) errors++;
        buffer = buffer.subarray(end + 4 + length);
        requests++;
        record(Math.round((performance.now() - sentAt) * 1000));
        send();
      }
    });
    socket.on('error', () => {
      errors++;
      resolve();
    });
    socket.on('close', () => resolve());
  });
}

const started = performance.now();
setTimeout(() => (running = false), durationMs);
await Promise.all(Array.from({ length: connections }, drive));
const seconds = (performance.now() - started) / 1000;
process.stdout.write(JSON.stringify({ requests, errors, seconds, rps: requests / seconds, p50: percentile(0.5), p99: percentile(0.99), overflow }) + '\n');
