/**
 * A response decided by the pipeline, as the adapter receives it: shared by `respond` and by the
 * `catch` blocks of sql steps and transactions.
 */
import { isMarkedProblem } from '../problem/index.js';
import type { ResponseResult } from './contract.js';

export function buildResponse(
  status: number,
  headers: Record<string, string> | undefined,
  body: unknown,
  json: string | undefined,
  statusFromProblem: boolean,
): ResponseResult {
  const problem = body !== null && body !== undefined && isMarkedProblem(body);
  if (problem && statusFromProblem) status = problemStatus(body as { status?: unknown }, status);
  // One literal shape for every response keeps the adapter's property reads monomorphic.
  return { kind: 'response', status, headers, body, problem, json };
}

/** The status a problem() body carries, when it is a final status; else the fallback. */
function problemStatus(body: { status?: unknown }, fallback: number): number {
  const s = body.status;
  return typeof s === 'number' && Number.isInteger(s) && s >= 200 && s <= 599 ? s : fallback;
}
