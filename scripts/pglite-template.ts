/**
 * Makes the empty PGlite data directory a new embedded database is copied from (the template of
 * src/connectors/postgres/template.ts): PGlite's initdb once, in memory, dumped as PGlite's own
 * gzip'd tar into vendor/pglite/. Kept when the installed PGlite's template is there already, so it
 * costs nothing after the first build (the first: a few seconds).
 *
 * Run by `npm run build` and `prepare` (so `npm ci` runs it): node --import tsx scripts/pglite-template.ts
 */
import { existsSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pgliteTemplateFile, writeTemplate } from '../src/connectors/index.js';

const file = pgliteTemplateFile();
if (!existsSync(file)) {
  const started = Date.now();
  const db = await PGlite.create();
  const dump = await db.dumpDataDir('gzip');
  await writeTemplate(file, new Uint8Array(await dump.arrayBuffer()));
  await db.close();
  console.log(`pglite template: ${file} (${Math.round(dump.size / 1024)} KiB, ${Date.now() - started} ms)`);
}
// PGlite's engine can keep the event loop alive after close.
process.exit(0);
