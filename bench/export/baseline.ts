/**
 * The hand-written baseline of bench/export: what one would write with node:http, `pg` and
 * `pg-query-stream` alone. `GET /export` pipes a QueryStream (the same query as
 * bench/export/manifest, 500 rows per fetch like svc's cursor: src/connectors/postgres/cursor.ts
 * CURSOR_BATCH_ROWS) through a Transform that JSON-stringifies each row and adds "\n" into the
 * response; `GET /export.csv` pipes it through csv-stringify's stream instead (the header row from
 * the first row's keys, CRLF records, booleans as true/false and dates as ISO text: the same bytes as
 * svc's csv encoder). `stream.pipeline` gives the backpressure and the teardown when the client
 * leaves; the pool client goes back when the pipeline ends (destroyed when it failed).
 *
 * int8 is parsed to a number as svc does (its ids are safe integers), so both bodies are
 * byte-for-byte equal; timestamptz stays pg's Date, numeric pg's text, as in svc.
 *
 * DATABASE_URL names the database. Prints `listening <port>` once bound to 127.0.0.1.
 */
import { createServer, type ServerResponse } from 'node:http';
import { pipeline, Transform } from 'node:stream';
import { stringify } from 'csv-stringify';
import pg from 'pg';
import QueryStream from 'pg-query-stream';

const QUERY = 'SELECT id, sku, name, price, in_stock, created_at FROM export_rows ORDER BY id';
const BATCH_ROWS = 500;

function int8(text: string): number | string {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 10,
  types: {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === 20 && format !== 'binary' ? int8 : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
  },
});
await pool.query('SELECT 1');

function ndjson(): Transform {
  return new Transform({
    writableObjectMode: true,
    transform(row, _encoding, done) {
      done(null, `${JSON.stringify(row)}\n`);
    },
  });
}

function csv(): Transform {
  return stringify({
    header: true,
    record_delimiter: 'windows',
    cast: { boolean: (value) => (value ? 'true' : 'false'), date: (value) => value.toISOString() },
  });
}

const FORMATS: Record<string, { contentType: string; encoder: () => Transform }> = {
  '/export': { contentType: 'application/x-ndjson', encoder: ndjson },
  '/export.csv': { contentType: 'text/csv; charset=utf-8', encoder: csv },
};

async function exportRows(format: { contentType: string; encoder: () => Transform }, res: ServerResponse): Promise<void> {
  const client = await pool.connect();
  const rows = client.query(new QueryStream(QUERY, [], { batchSize: BATCH_ROWS }));
  res.writeHead(200, { 'content-type': format.contentType });
  pipeline(rows, format.encoder(), res, (error) => client.release(error ? true : undefined));
}

const server = createServer((req, res) => {
  const format = req.method === 'GET' ? FORMATS[req.url ?? ''] : undefined;
  if (format === undefined) {
    res.writeHead(404).end();
    return;
  }
  exportRows(format, res).catch((error: unknown) => {
    if (!res.headersSent) res.writeHead(503, { 'content-type': 'text/plain' });
    res.end(String(error));
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => void pool.end().then(() => process.exit(0)));
});
