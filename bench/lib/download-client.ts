/**
 * The download client of the export benchmarks (bench/export, bench/mysql; ./download.ts starts it),
 * its own process so that reading the body does not share an event loop with the server measured.
 * Reads one response body and discards it, counting bytes and line ends (and, with --hash, its
 * SHA-256, to compare two servers' bodies).
 *
 *   node dist/bench/lib/download-client.js <url> [--hash]
 *       the whole body as fast as it comes; prints one JSON line:
 *       { status, bytes, lines, headMs, totalMs, sha256? }
 *   node dist/bench/lib/download-client.js <url> --rate <bytes/s> --seconds <s>
 *       a slow client: reads at about <rate> for <s> seconds, then leaves (closes the connection);
 *       prints { status, bytes, lines, headMs, totalMs, left: true }
 *
 * The slow client pauses the response whenever it is ahead of its rate: node stops reading the
 * socket, the kernel's receive buffer fills, and the server's writes must wait (its backpressure).
 */
import { createHash } from 'node:crypto';
import { get } from 'node:http';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { hash: { type: 'boolean', default: false }, rate: { type: 'string' }, seconds: { type: 'string' } },
});
const url = positionals[0];
if (!url) {
  process.stderr.write('usage: download-client.js <url> [--hash] [--rate <bytes/s> --seconds <s>]\n');
  process.exit(2);
}
const rate = values.rate === undefined ? undefined : Number(values.rate);
const limitMs = values.seconds === undefined ? undefined : Number(values.seconds) * 1000;

const started = performance.now();
let headMs = NaN;
let bytes = 0;
let lines = 0;
const hash = values.hash ? createHash('sha256') : undefined;
let reported = false;

/** Prints the one result line (the first ending wins: the end, a failure, or the slow client leaving). */
function report(status: number, extra: Record<string, unknown> = {}): void {
  if (reported) return;
  reported = true;
  const totalMs = performance.now() - started;
  const sha256 = hash?.digest('hex');
  process.stdout.write(`${JSON.stringify({ status, bytes, lines, headMs, totalMs, ...(sha256 ? { sha256 } : {}), ...extra })}\n`);
}

const request = get(url, { agent: false }, (res) => {
  headMs = performance.now() - started;
  const status = res.statusCode ?? 0;
  res.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines++;
    hash?.update(chunk);
    if (rate === undefined) return;
    // Ahead of the rate: stop reading until the time this many bytes were due.
    const aheadMs = (bytes / rate) * 1000 - (performance.now() - started);
    if (aheadMs > 0) {
      res.pause();
      setTimeout(() => res.resume(), aheadMs);
    }
  });
  res.on('end', () => report(status));
  res.on('error', (error) => report(status, { error: error.message }));
  if (limitMs !== undefined) {
    setTimeout(() => {
      report(status, { left: true });
      request.destroy();
      res.destroy();
    }, limitMs);
  }
});
request.on('error', (error) => {
  report(0, { error: error.message });
  process.exitCode = 1;
});
