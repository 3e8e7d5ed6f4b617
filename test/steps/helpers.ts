/** Hand-built step specs and endpoint models for step tests (no manifest loader needed). */
import type { Range } from '../../src/diag/range.js';
import { compileExpression } from '../../src/expr/index.js';
import { parseExpression } from '../../src/hcl/index.js';
import { failureStatus } from '../../src/http/failure.js';
import type { Expr, PipelineEndpointModel, ServiceModel } from '../../src/model/index.js';
import {
  compileEndpoint as compileWithModel,
  type EndpointCompilation,
  type EndpointResult,
  type FailureResult,
  type PendingResult,
  type RequestContext,
  type RespondStepSpec,
  type StepSpec,
} from '../../src/steps/index.js';

export const RANGE: Range = { filename: 'test.hcl', start: { line: 1, column: 1, byte: 0 }, end: { line: 1, column: 2, byte: 1 } };

export function expr(text: string): Expr {
  const { expr: ast, diagnostics } = parseExpression(text, 'test.hcl');
  if (diagnostics.length > 0) throw new Error(diagnostics.map((d) => d.summary).join('; '));
  const { compiled, diagnostics: more } = compileExpression(ast);
  if (more.length > 0) throw new Error(more.map((d) => d.summary).join('; '));
  return compiled;
}

export function respond(fields: Partial<Omit<RespondStepSpec, 'kind'>> = {}): RespondStepSpec {
  return { kind: 'respond', range: RANGE, blockPath: ['endpoint "GET /t"', 'pipeline', 'respond'], statusCode: 200, ...fields };
}

export function pipeline(steps: StepSpec[], label = 'GET /t', auth: string[] = []): PipelineEndpointModel<StepSpec> {
  const [method, path] = label.split(' ') as [PipelineEndpointModel['method'], string];
  return {
    kind: 'pipeline',
    id: label,
    method,
    path,
    segments: [],
    pathParams: [],
    dialect: 'endpoint',
    tags: [],
    auth,
    request: { path: [], query: [], headers: [] },
    range: RANGE,
    labelRange: RANGE,
    blockPath: [`endpoint "${label}"`],
    steps,
    statuses: [],
    failureStatuses: [],
    responses: [],
  };
}

export function ctx(overrides: Partial<RequestContext['request']> = {}, requestId = 'r-1'): RequestContext {
  return {
    request: { method: 'GET', path: {}, query: {}, headers: {}, body: undefined, ...overrides },
    timestamp_epoch: 1_700_000_000,
    request_id: requestId,
  };
}

/** The smallest service around one endpoint: what a step compiler may read of the model. */
export function serviceOf(endpoint: PipelineEndpointModel<StepSpec>): ServiceModel<StepSpec> {
  return {
    server: { host: '127.0.0.1', port: 8080, maxBodySize: 1 << 20, requestTimeoutMs: 30_000, shutdownTimeoutMs: 10_000, auth: [], accessLog: true },
    openapi: { title: 'API', version: '1.0.0', servers: [], tags: [] },
    endpoints: [endpoint],
    schemas: new Map(),
    auths: new Map(),
    connections: new Map(),
    sources: new Map(),
    dir: '.',
  };
}

/** Compiles one endpoint as the service compiler does, in a service of its own unless one is given. */
export function compileEndpoint(endpoint: PipelineEndpointModel<StepSpec>, model: ServiceModel<StepSpec> = serviceOf(endpoint)): EndpointCompilation {
  return compileWithModel(endpoint, model);
}

/** The status the HTTP adapter answers a failure with. */
export function statusOf(failure: FailureResult): number {
  return failureStatus(failure.category);
}

/** The result a pending run delivers. */
export function settled(pending: PendingResult): Promise<EndpointResult> {
  return new Promise((resolve) => pending.follow({ settle: resolve }));
}
