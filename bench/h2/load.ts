/**
 * The load generator of bench/h2: `sessions` HTTP/2 connections (TLS), each keeping `streams`
 * requests in flight, GET `path` for `seconds`; prints one JSON line: completed requests, failures,
 * p50/p99 latency in ms. A node:http2 client loop (h2load is not installed on this machine).
 *
 *     node dist/bench/h2/load.js <url> <path> <seconds> <sessions> <streams>
 */
import { connect, type ClientHttp2Session } from 'node:http2';
import { performance } from 'node:perf_hooks';

const [url, path, seconds, sessionCount, streamCount] = process.argv.slice(2);
const until = performance.now() + Number(seconds) * 1000;
let completed = 0;
let failed = 0;
const latencies: number[] = [];

function one(session: ClientHttp2Session): Promise<void> {
  return new Promise((resolve) => {
    const started = performance.now();
    const stream = session.request({ ':path': path! });
    stream.on('data', () => {});
    stream.on('end', () => {
      completed++;
      if (latencies.length < 200_000) latencies.push(performance.now() - started);
      resolve();
    });
    stream.on('error', () => {
      failed++;
      resolve();
    });
  });
}

async function worker(session: ClientHttp2Session): Promise<void> {
  while (performance.now() < until) await one(session);
}

const sessions = await Promise.all(
  Array.from(
    { length: Number(sessionCount) },
    () =>
      new Promise<ClientHttp2Session>((resolve, reject) => {
        const session = connect(url!, { rejectUnauthorized: false });
        session.once('connect', () => resolve(session));
        session.once('error', reject);
      }),
  ),
);
await Promise.all(sessions.flatMap((session) => Array.from({ length: Number(streamCount) }, () => worker(session))));
for (const session of sessions) session.close();
latencies.sort((a, b) => a - b);
const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
process.stdout.write(`${JSON.stringify({ completed, failed, p50: at(0.5), p99: at(0.99) })}\n`);
