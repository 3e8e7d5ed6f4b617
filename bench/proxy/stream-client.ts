/**
 * The client of bench/proxy stream-rss: one GET of the URL given as argument, the body counted and
 * discarded as it arrives. Prints one JSON line: `{"status", "bytes", "ms", "complete"}` (ms from the
 * request to the last byte).
 */
import { request } from 'node:http';

const url = process.argv[2];
if (!url) throw new Error('usage: stream-client <url>');

const started = performance.now();
const req = request(url, { agent: false }, (res) => {
  let bytes = 0;
  let reported = false;
  const done = (complete: boolean): void => {
    if (reported) return;
    reported = true;
    process.stdout.write(`${JSON.stringify({ status: res.statusCode, bytes, ms: performance.now() - started, complete })}\n`);
  };
  res.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  res.on('end', () => done(true));
  res.on('aborted', () => done(false));
  res.on('error', () => done(false));
});
req.on('error', (error) => {
  process.stderr.write(`stream-client: ${error.message}\n`);
  process.exitCode = 1;
});
req.end();
