/**
 * A latency client that keeps every sample (bench/lib/load.ts buckets below 100 ms; here a stalled
 * event loop shows latencies of a second). Closed loop by default: `connections` keep-alive sockets,
 * each sending its next request when the previous response is complete. With `--every <ms>` it
 * probes open loop instead: a request every that many milliseconds whatever came back, on an idle
 * socket (a new one when all are waiting), so requests keep going out while a server stalls and
 * every one of them shows the stall in the percentiles (a closed loop sends nothing while it waits,
 * and its percentiles hide the stall: coordinated omission). Latency counts from the send, so a
 * late timer of this client's own is not blamed on the server.
 *
 * Usage: node dist/bench/starlark-loop/client.js <url> <connections> <seconds> [--status <code>] [--every <ms>]
 * Prints one JSON line: { requests, errors, rps, p50, p99, max } (latencies in milliseconds). A
 * response whose status is not the expected one (`--status`, default 200) counts as an error.
 */
import { connect, type Socket } from 'node:net';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { status: { type: 'string', default: '200' }, every: { type: 'string' } },
});
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

/** One keep-alive socket of the open-loop probe: sends one request at a time, due at a given time. */
class Probe {
  readonly socket: Socket;
  busy = false;
  #buffer: Buffer = Buffer.alloc(0);
  #sentAt = 0;
  readonly ready: Promise<void>;
  constructor() {
    this.socket = connect(Number(target.port), target.hostname);
    this.socket.setNoDelay(true);
    this.ready = new Promise((resolve) => this.socket.once('connect', () => resolve()));
    this.socket.on('data', (chunk: Buffer) => {
      this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
      const end = this.#buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.#buffer.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      if (this.#buffer.length < end + 4 + length) return;
      if (!head.startsWith(expected)) errors++;
      this.#buffer = this.#buffer.subarray(end + 4 + length);
      latencies.push(performance.now() - this.#sentAt);
      this.busy = false;
    });
    this.socket.on('error', () => errors++);
  }
  send(): void {
    this.busy = true;
    this.#sentAt = performance.now();
    this.socket.write(request);
  }
}

async function probe(everyMs: number): Promise<void> {
  const probes: Probe[] = [];
  const first = new Probe();
  await first.ready;
  probes.push(first);
  const begin = performance.now();
  for (let i = 0; ; i++) {
    const dueAt = begin + i * everyMs;
    if (dueAt - begin >= durationMs) break;
    const wait = dueAt - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    let idle = probes.find((p) => !p.busy);
    if (idle === undefined) {
      idle = new Probe();
      probes.push(idle);
      await idle.ready;
    }
    idle.send();
  }
  // the answers still due
  while (probes.some((p) => p.busy)) await new Promise((r) => setTimeout(r, 5));
  for (const p of probes) p.socket.end();
}

const started = performance.now();
if (values.every !== undefined) await probe(Number(values.every));
else {
  setTimeout(() => (running = false), durationMs);
  await Promise.all(Array.from({ length: Number(connArg) }, drive));
}
const seconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (p: number): number => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
process.stdout.write(`${JSON.stringify({ requests: latencies.length, errors, rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), max: at(1) })}\n`);
