/**
 * Per-item cost of the encoders: `node --import tsx test/stream/bench.ts [rows]` (default 100,000).
 * CSV is measured against a hand-written RFC 4180 encoder of the same rows in the same run (the
 * floor of what any CSV export can cost); ndjson and sse against a bare JSON.stringify per row.
 */
import { createEncoding, type EncodingOptions } from '../../src/stream/index.js';

const N = Number(process.argv[2] ?? 100_000);
const ROUNDS = 5;

const rows = Array.from({ length: N }, (_, i) => ({
  id: i,
  name: `user ${i}`,
  email: `u${i}@example.com`,
  note: i % 10 === 0 ? 'has, a comma and "quotes"' : 'plain',
  active: i % 2 === 0,
  score: i * 1.5,
}));
const columns = Object.keys(rows[0]!);

function handCsv(): number {
  const quote = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v));
  let bytes = 0;
  for (const row of rows) {
    let line = '';
    for (let i = 0; i < columns.length; i++) line += (i ? ',' : '') + quote(cell((row as Record<string, unknown>)[columns[i]!]));
    bytes += (line + '\r\n').length;
  }
  return bytes;
}

function handJson(): number {
  let bytes = 0;
  for (const row of rows) bytes += (JSON.stringify(row) + '\n').length;
  return bytes;
}

function encoder(options: Partial<EncodingOptions> & Pick<EncodingOptions, 'format'>): () => number {
  const encoding = createEncoding({ contentType: 'x', ...options });
  return () => {
    const e = encoding.open();
    let bytes = e.start().length;
    for (const row of rows) bytes += (e.item(row) as string).length;
    return bytes;
  };
}

const cases: [string, () => number][] = [
  ['csv (hand-written baseline)', handCsv],
  ['csv (encoder)', encoder({ format: 'csv' })],
  ['JSON.stringify per row (baseline)', handJson],
  ['ndjson (encoder)', encoder({ format: 'ndjson' })],
  ['sse (encoder, event + id)', encoder({ format: 'sse', event: 'row', idOf: (row) => (row as { id: number }).id })],
];

for (const [name, run] of cases) {
  let best = Number.POSITIVE_INFINITY;
  let bytes = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.hrtime.bigint();
    bytes = run();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  console.log(
    `${name.padEnd(36)} ${Math.round((N / best) * 1000)
      .toLocaleString('en-US')
      .padStart(11)} rows/s  (${best.toFixed(1)} ms, ${bytes} bytes)`,
  );
}
