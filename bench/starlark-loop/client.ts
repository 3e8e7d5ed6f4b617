/**
 * A closed-loop latency client that keeps every sample (bench/lib/load.ts buckets below 100 ms;
 * here a stalled event loop shows latencies of a second): `connections` keep-alive sockets, each
 * sending its next request when the previous response is complete.
 *
 * Usage: node dist/bench/starlark-loop/client.js <url> <connections> <seconds> [--status <code>]
 * Prints one JSON line: { requests, errors, rps, p50, p99, max } (latencies in milliseconds). A
 * response whose status is not the expected one (`--status`, default 200) counts as an error.
 */
import { connect, type Socket } from 'node:net';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { status: { type: 'string', default: '200' } } });
const [url, connArg = '1', secondsArg = '5'] = positionals;
if (url === undefined) {
  process.stderr.write('usage: client.js <url> [connections] [seconds] [--status 200]\n');
  process.exit(2);
}
const target = new URL(url);
const durationMs = Number(secondsArg) * 1000;
const request = Buffer.from(`GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: keep-alive\r\n\r\n`);
const expected = `HTTP/1.1 ${values.status}`;
const latencies: number[] = [];
let errors = 0;
let running = true;

function drive(): Promise<void> {
  return new Promise((done) => {
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
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        if (!head.startsWith(expected)) errors++;
        buffer = buffer.subarray(end + 4 + length);
        latencies.push(performance.now() - sentAt);
        send();
      }
    });
    socket.on('error', () => {
      errors++;
      done();
    });
    socket.on('close', () => done());
  });
}

const started = performance.now();
setTimeout(() => (running = false), durationMs);
await Promise.all(Array.from({ length: Number(connArg) }, drive));
const seconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (p: number): number => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
process.stdout.write(`${JSON.stringify({ requests: latencies.length, errors, rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), max: at(1) })}\n`);
