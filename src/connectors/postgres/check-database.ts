/**
 * The database `svc check --database` describes statements on: a server by its URL, or a new
 * in-memory PGlite engine (`pglite:`), started for the check and stopped after it. One client, no
 * pool; everything it does is rolled back (./statement-check.ts). A `pglite:<dir>` database is not
 * opened: a running server may hold the directory, and two engines on one directory corrupt it.
 */
import pg from 'pg';
import { describeStatements, type StatementReport } from './statement-check.js';
import { checkableDatabaseUrl } from './target.js';

/** How long the check waits for the server's handshake. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The reports of `statements` on the database at `url`, after the pending files of `migrations`.
 * Rejects when the database cannot be reached or a migration fails.
 */
export async function describeOnDatabase(url: string, migrations: string | undefined, statements: readonly string[]): Promise<StatementReport[]> {
  if (!checkableDatabaseUrl(url)) throw new Error(`${url} is neither a postgres:// URL nor pglite: (in memory)`);
  const engine = url.startsWith('pglite:') ? await (await import('./embedded.js')).startEmbedded(undefined, 2) : undefined;
  try {
    const client = new pg.Client({ connectionString: engine?.url ?? url, application_name: 'svc check', connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    // A connection lost between two statements surfaces as the next query's rejection; without a
    // listener pg's 'error' event would end the process first.
    client.on('error', () => {});
    await client.connect();
    try {
      return await describeStatements(client, statements, migrations);
    } finally {
      await client.end().catch(() => {});
    }
  } finally {
    await engine?.stop();
  }
}
