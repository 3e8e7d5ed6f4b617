/** The log's batching (src/http/log.ts LineSink): whole lines, in order, each write within its bound. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSink } from '../../src/http/log.js';

test("a sink with a 2 KiB threshold (a worker's) never writes more than 4 KiB at once, and never cuts a line", () => {
  const writes: Buffer[] = [];
  const sink = new LineSink({ write: (chunk: string | Uint8Array) => writes.push(Buffer.from(chunk)) }, 2048, 100_000);
  const lines: string[] = [];
  // Fixed lengths from 1 to 900 characters, some with multi-byte text (é is 2 bytes, € 3).
  for (let i = 0; i < 500; i++) {
    const filler = 'x'.repeat((i * 37) % 900) + (i % 3 === 0 ? 'é€' : '');
    lines.push(`{"n":${i},"s":"${filler}"}\n`);
  }
  for (const line of lines) sink.write(line);
  sink.flush();
  for (const chunk of writes) {
    assert.ok(chunk.length <= 4096, `a write of ${chunk.length} bytes`);
    assert.equal(chunk.at(-1), 0x0a, 'every write ends with a whole line');
  }
  assert.equal(Buffer.concat(writes).toString('utf8'), lines.join(''));
});
