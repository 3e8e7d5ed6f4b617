/**
 * Compressed exports from a real cursor (PGlite and the real server): 20,000 rows (40 cursor batches) as ndjson and as
 * csv in each coding (gzip, br, zstd where Node has it), decoded byte for byte against the text
 * the rows make; the same export uncompressed for a client that accepts no coding; a compressed
 * stream whose first line arrives, decoded, while the query still waits (for a lock the test holds);
 * and the pool whole afterwards.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createGunzip } from 'node:zlib';
import { CODINGS, fetchRaw } from '../http/compress-helpers.js';
import { listenLocal, open } from '../http/stream-helpers.js';
import { closeTargets, eventually, poolWhole, rowsOf, serve, TARGETS, type ServedManifest } from './helpers.js';

after(closeTargets);

const MANIFEST = `
connection "postgres" "db" {
  url = "{{DB}}"
}

server {
  compression {
    encodings = ["zstd", "br", "gzip"]
  }
}

route "GET /rows.ndjson" {
  sql "rows" {
    connection = connection.postgres.db
    stream     = true
    query      = "SELECT i, 'row ' || i AS label FROM generate_series(1, 20000) i"
  }
  stream "ndjson" {
    source = steps.rows.stream
  }
}

route "GET /waiting.ndjson" {
  sql "rows" {
    connection = connection.postgres.db
    stream     = true
    # The first cursor batch (500 rows) is ready at once; row 501 waits for an advisory lock the test holds.
    query      = "SELECT i, CASE WHEN i <= 500 THEN 'ready' ELSE pg_advisory_xact_lock_shared(4242)::text || 'waited' END AS label FROM generate_series(1, 1000) i"
  }
  stream "ndjson" {
    source = steps.rows.stream
  }
}

route "GET /rows.csv" {
  sql "rows" {
    connection = connection.postgres.db
    stream     = true
    query      = "SELECT i, 'row, ' || i AS label FROM generate_series(1, 20000) i"
  }
  stream "csv" {
    source  = steps.rows.stream
    columns = ["i", "label"]
  }
}
`;

let ndjson = '';
let csv = 'i,label\r\n';
for (let i = 1; i <= 20_000; i++) {
  ndjson += `{"i":${i},"label":"row ${i}"}\n`;
  csv += `${i},"row, ${i}"\r\n`;
}

for (const target of TARGETS) {
  describe(`compressed exports on ${target.name}`, { skip: target.skip, timeout: 120_000 }, () => {
    let s: ServedManifest;
    let url: string;

    before(async () => {
      s = await serve(MANIFEST, await target.fresh());
      url = await listenLocal(s.app);
    });
    after(() => s.close());

    for (const coding of CODINGS) {
      test(`20,000 rows as ndjson and csv in ${coding}, byte-exact once decoded`, async () => {
        const lines = await fetchRaw(`${url}/rows.ndjson`, { 'accept-encoding': coding });
        assert.equal(lines.status, 200);
        assert.equal(lines.headers['content-encoding'], coding);
        assert.equal(lines.headers.vary, 'Accept-Encoding');
        assert.equal(lines.text.length, ndjson.length);
        assert.ok(lines.text === ndjson, 'every row, in order');
        assert.ok(lines.raw.length < ndjson.length / 4, `${lines.raw.length} bytes for ${ndjson.length}`);
        const rows = await fetchRaw(`${url}/rows.csv`, { 'accept-encoding': coding });
        assert.equal(rows.headers['content-encoding'], coding);
        assert.ok(rows.text === csv, 'the header and every row, in order');
        await poolWhole(s);
      });
    }

    test('a compressed ndjson stream delivers its first line while the query still waits', {
      skip: target.name === 'pglite' && 'PGlite has one connection: the test cannot hold a lock beside the query',
    }, async () => {
      const holder = await s.db.checkout();
      try {
        await holder.query('SELECT pg_advisory_lock(4242)');
        const res = await open(`${url}/waiting.ndjson`, { 'accept-encoding': 'gzip' });
        assert.equal(res.headers['content-encoding'], 'gzip');
        const gunzip = createGunzip();
        res.pipe(gunzip);
        let text = '';
        await new Promise<void>((resolve, reject) => {
          const onData = (chunk: Buffer): void => {
            text += chunk.toString('utf8');
            if (text.includes('\n')) {
              gunzip.off('data', onData);
              gunzip.pause();
              resolve();
            }
          };
          gunzip.on('data', onData);
          gunzip.on('error', reject);
        });
        assert.ok(text.startsWith('{"i":1,"label":"ready"}\n'), text.slice(0, 40));
        // The query has not ended: its backend waits for the lock this test holds.
        const waiting = await eventually(
          () => rowsOf(s, "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'"),
          (rows) => rows.length === 1,
          5000,
        );
        assert.equal(waiting.length, 1);
        await holder.query('SELECT pg_advisory_unlock(4242)');
        gunzip.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        gunzip.resume();
        await new Promise((resolve) => gunzip.on('end', resolve));
        const lines = text.trimEnd().split('\n');
        assert.equal(lines.length, 1000);
        assert.equal(lines[999], '{"i":1000,"label":"waited"}');
      } finally {
        holder.release();
      }
      await poolWhole(s);
    });

    test('a client that accepts no coding gets the same export as it is', async () => {
      const lines = await fetchRaw(`${url}/rows.ndjson`, { 'accept-encoding': 'identity' });
      assert.equal(lines.headers['content-encoding'], undefined);
      assert.ok(lines.raw.toString('utf8') === ndjson);
      await poolWhole(s);
    });
  });
}
