/** Hand-built step specs and endpoint models for step tests (no manifest loader needed). */
import type { Range } from '../../src/diag/range.js';
import { compileExpression } from '../../src/expr/index.js';
import { parseExpression } from '../../src/hcl/index.js';
import type { Expr } from '../../src/model/step-common.js';
import type { PipelineEndpointModel, RespondStepSpec, StepSpec } from '../../src/model/types.js';
import type { RequestContext } from '../../src/steps/endpoint.js';

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

export function pipeline(steps: StepSpec[], label = 'GET /t', auth: string[] = []): PipelineEndpointModel {
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
  };
}

export function ctx(overrides: Partial<RequestContext['request']> = {}, requestId = 'r-1'): RequestContext {
  return {
    request: { method: 'GET', path: {}, query: {}, headers: {}, body: undefined, ...overrides },
    timestamp_epoch: 1_700_000_000,
    request_id: requestId,
  };
}
