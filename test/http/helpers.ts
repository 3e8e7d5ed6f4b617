/** Builders for HTTP adapter tests: endpoints from plain functions, and a log capture. */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildServer, createLogger } from '../../src/http/index.js';
import type { RequestSpec } from '../../src/schema/field.js';
import assert from 'node:assert/strict';
import { createConnectors, type ConnectorSet } from '../../src/connectors/index.js';
import type { Diagnostic } from '../../src/diag/index.js';
import {
  buildServiceModel,
  compileService,
  type CompiledEndpoint,
  type CompileServiceOptions,
  type EndpointResult,
  loadServiceModel,
  type PendingResult,
  type RequestContext,
  type StepSpec,
} from '../../src/steps/index.js';
import type { ServiceModel } from '../../src/model/index.js';

export const NO_REQUEST: RequestSpec = { path: [], query: [], headers: [] };

export function endpoint(label: string, run: (ctx: RequestContext) => EndpointResult | PendingResult, request: RequestSpec = NO_REQUEST): CompiledEndpoint {
  const [method, path] = label.split(' ') as [string, string];
  return { method, path, request, run };
}

/** A pending run that delivers what `result` resolves to (a test's stand-in for an asynchronous graph). */
export function pendingOf(result: Promise<EndpointResult>, cancel: () => void = () => {}): PendingResult {
  let cancelled = false;
  return {
    kind: 'pending',
    follow(receiver) {
      void result.then((r) => {
        if (!cancelled) receiver.settle(r);
      });
    },
    cancel() {
      cancelled = true;
      cancel();
    },
  };
}

export function json(body: unknown, status = 200, headers?: Record<string, string>): EndpointResult {
  return { kind: 'response', status, body, problem: false, ...(headers ? { headers } : {}) };
}

/** A pino destination that keeps every line, parsed. */
export class LogCapture extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) if (line) this.lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
  requests(): Record<string, unknown>[] {
    return this.lines.filter((l) => 'reqId' in l);
  }
}

export interface TestServer {
  readonly app: FastifyInstance;
  readonly log: LogCapture;
}

export async function server(endpoints: CompiledEndpoint[], options: { bodyLimit?: number; requestTimeoutMs?: number } = {}): Promise<TestServer> {
  const log = new LogCapture();
  const app = await buildServer({
    endpoints,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    logger: createLogger({ stream: log }),
  });
  return { app, log };
}

export interface ServedService {
  readonly app: FastifyInstance;
  readonly connectors: ConnectorSet;
  readonly log: LogCapture;
  close(): Promise<void>;
}

/**
 * A whole service from manifest text, as `svc serve` builds it: built and compiled (no error
 * allowed), its connections opened, its endpoints on a Fastify app for `inject` or `listen`.
 */
export async function serveManifest(
  source: string,
  options: { requestTimeoutMs?: number; dir?: string; logLevel?: string; compile?: CompileServiceOptions } = {},
): Promise<ServedService> {
  return serveBuilt(buildServiceModel([{ filename: 'api.hcl', source }], { dir: options.dir ?? '.' }), options);
}

/** The same from a manifest directory on disk, its files (Starlark modules, templates) read. */
export async function serveManifestDir(
  dir: string,
  options: { requestTimeoutMs?: number; logLevel?: string; compile?: CompileServiceOptions } = {},
): Promise<ServedService> {
  return serveBuilt(await loadServiceModel(dir), options);
}

async function serveBuilt(
  built: { readonly model?: ServiceModel<StepSpec> | undefined; readonly diagnostics: readonly Diagnostic[] },
  options: { requestTimeoutMs?: number; logLevel?: string; compile?: CompileServiceOptions },
): Promise<ServedService> {
  const summaries = (ds: readonly Diagnostic[]): string[] => ds.map((d) => `${d.subject?.start.line}: ${d.summary}: ${d.detail ?? ''}`);
  assert.deepEqual(summaries(built.diagnostics.filter((d) => d.severity === 'error')), []);
  const model = built.model!;
  const connectors = createConnectors(model);
  const service = compileService(model, { ...options.compile, connectors });
  assert.deepEqual(summaries(service.diagnostics), []);
  await connectors.openAll();
  const log = new LogCapture();
  const app = await buildServer({
    endpoints: service.endpoints,
    bodyLimit: 1024 * 1024,
    requestTimeoutMs: options.requestTimeoutMs ?? model.server.requestTimeoutMs,
    ...(model.server.cors ? { cors: model.server.cors } : {}),
    logger: createLogger({ stream: log, ...(options.logLevel ? { level: options.logLevel } : {}) }),
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
