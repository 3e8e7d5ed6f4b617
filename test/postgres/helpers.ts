/**
 * A whole service from manifest text, served in-process on real connections: the manifest is built
 * and compiled as `svc serve` does, its connections opened, and requests sent through Fastify's
 * `inject`. Used by the sql/transaction tests, which run on every postgres target (embedded PGlite
 * and the real server the test command starts).
 */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createConnectors, type ConnectorSet } from '../../src/connectors/index.js';
import { buildServer, createLogger } from '../../src/http/index.js';
import { buildServiceModel, compileService } from '../../src/steps/index.js';
import { LogCapture } from '../http/helpers.js';

export { closeTargets, TARGETS, type Target } from '../connectors/helpers.js';

export interface ServedManifest {
  readonly app: FastifyInstance;
  readonly connectors: ConnectorSet;
  readonly log: LogCapture;
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
    async close() {
      await app.close();
      await connectors.closeAll();
    },
  };
}
