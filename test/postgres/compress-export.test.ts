/**
 * Compressed exports from a real cursor (PGlite and the real server): 100,000 rows as ndjson and as
 * csv in each coding (gzip, br, zstd where Node has it), decoded byte for byte against the text
 * the rows make; the same export uncompressed for a client that accepts no coding; and the pool
 * whole afterwards.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CODINGS, fetchRaw } from '../http/compress-helpers.js';
import { listenLocal } from '../http/stream-helpers.js';
import { closeTargets, poolWhole, serve, TARGETS, type ServedManifest } from './helpers.js';

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
    query      = "SELECT i, 'row ' || i AS label FROM generate_series(1, 100000) i"
  }
  stream "ndjson" {
    source = steps.rows.stream
  }
}

route "GET /rows.csv" {
  sql "rows" {
    connection = connection.postgres.db
    stream     = true
    query      = "SELECT i, 'row, ' || i AS label FROM generate_series(1, 100000) i"
  }
  stream "csv" {
    source  = steps.rows.stream
    columns = ["i", "label"]
  }
}
`;

let ndjson = '';
let csv = 'i,label\r\n';
for (let i = 1; i <= 100_000; i++) {
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
      test(`100,000 rows as ndjson and csv in ${coding}, byte-exact once decoded`, async () => {
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

    test('a client that accepts no coding gets the same export as it is', async () => {
      const lines = await fetchRaw(`${url}/rows.ndjson`, { 'accept-encoding': 'identity' });
      assert.equal(lines.headers['content-encoding'], undefined);
      assert.ok(lines.raw.toString('utf8') === ndjson);
      await poolWhole(s);
    });
  });
}
