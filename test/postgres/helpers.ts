/**
 * A whole service from manifest text, served in-process on real connections: the manifest is built
 * and compiled as `svc serve` does, its connections opened, and requests sent through Fastify's
 * `inject`. Used by the sql/transaction tests, which run on every postgres target (embedded PGlite
 * and the real server the test command starts).
 */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createConnectors, type ConnectorSet, type PostgresHandle } from '../../src/connectors/index.js';
import { buildServer, createLogger } from '../../src/http/index.js';
import { buildServiceModel, compileService } from '../../src/steps/index.js';
import { LogCapture } from '../http/helpers.js';
import { eventually } from '../connectors/helpers.js';

export { closeTargets, eventually, TARGETS, type Target } from '../connectors/helpers.js';

export interface ServedManifest {
  readonly app: FastifyInstance;
  readonly connectors: ConnectorSet;
  readonly log: LogCapture;
  /** The handle of `connection "postgres" "db"` (the name the postgres tests' manifests use), if declared. */
  readonly db: PostgresHandle;
  close(): Promise<void>;
}

/** `{{DB}}` in the manifest is replaced by `url`. */
export async function serve(manifest: string, url: string, options: { requestTimeoutMs?: number; dir?: string } = {}): Promise<ServedManifest> {
  const built = buildServiceModel([{ filename: 'api.hcl', source: manifest.replaceAll('{{DB}}', url) }], { dir: options.dir ?? '.' });
  assert.deepEqual(
    built.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.subject?.start.line}: ${d.summary}: ${d.detail ?? ''}`),
    [],
  );
  const model = built.model!;
  const connectors = createConnectors(model);
  const service = compileService(model, { connectors });
  assert.deepEqual(
    service.diagnostics.map((d) => `${d.subject?.start.line}: ${d.summary}: ${d.detail ?? ''}`),
    [],
  );
  await connectors.openAll();
  const log = new LogCapture();
  const app = await buildServer({
    endpoints: service.endpoints,
    bodyLimit: 1024 * 1024,
    requestTimeoutMs: options.requestTimeoutMs ?? model.server.requestTimeoutMs,
    logger: createLogger({ stream: log }),
  });
  return {
    app,
    connectors,
    log,
    get db() {
      return connectors.handle('postgres', 'db');
    },
    async close() {
      await app.close();
      await connectors.closeAll();
    },
  };
}

/** Rows of a statement run on the served pool (a client of its own, given back idle). */
export async function rowsOf(s: ServedManifest, sql: string): Promise<Record<string, unknown>[]> {
  return (await s.db.query(sql)).rows;
}

/**
 * Waits (a poll, generous bound) until the pool of `db` is whole: nobody waiting, every open client
 * idle; then asserts it. Cancelled clients are destroyed and replaced lazily, so `total` may be lower
 * than before, never a client checked out and forgotten.
 */
export async function poolWhole(s: ServedManifest, ms = 5000): Promise<void> {
  const stats = await eventually(
    () => s.db.stats(),
    (st) => st.waiting === 0 && st.idle === st.total,
    ms,
  );
  assert.equal(stats.waiting, 0, `nobody waits for a client: ${JSON.stringify(stats)}`);
  assert.equal(stats.idle, stats.total, `every client is back: ${JSON.stringify(stats)}`);
}

/**
 * Real server only: the backends of this database still running a statement whose text contains
 * `marker`, polled until there are none (generous bound). The probe's own backend is left out.
 */
export async function activeQueries(s: ServedManifest, marker: string, ms = 5000): Promise<string[]> {
  const probe = async (): Promise<string[]> =>
    (
      await s.db.query<{ query: string }>({
        text: "SELECT query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND strpos(query, $1) > 0",
        values: [marker],
      })
    ).rows.map((r) => r.query);
  return eventually(probe, (running) => running.length === 0, ms);
}
