/**
 * The statuses a respond can answer with, read from the manifest's text at boot for `svc graph`, the
 * endpoint's known statuses (src/steps/respond) and the OpenAPI responses: beside `problem()` so the
 * two agree. As at run time (src/steps/respond/node.ts): a written `status` wins, else a `problem(...)`
 * body's status (200-599), else 200; `'computed'` when it depends on request data.
 */
import type { Expression, FunctionCall } from '../hcl/index.js';

export type PossibleStatuses = readonly number[] | 'computed';

/** Expressions whose value is made by the expression itself: a problem() inside is only a member. */
const BUILT: ReadonlySet<Expression['kind']> = new Set(['ObjectCons', 'Tuple', 'Template', 'Literal', 'ForExpr', 'BinaryOp', 'UnaryOp']);

/** The status a respond without `status` falls back to (and that of a problem whose status is interim). */
const DEFAULT_STATUS = 200;

/** A written, non-constant `status`: the statuses it can take when written as literals (`c ? 409 : 502`). */
export function writtenStatuses(status: Expression): PossibleStatuses {
  return literalStatuses(status) ?? 'computed';
}

/** `status` omitted: 200, or the statuses of the `problem()` calls the body can evaluate to. */
export function bodyStatuses(body: Expression | undefined): PossibleStatuses {
  const statuses = body === undefined ? [DEFAULT_STATUS] : statusesOfBody(body);
  return statuses === undefined ? 'computed' : [...new Set(statuses)].sort((a, b) => a - b);
}

function statusesOfBody(body: Expression): number[] | undefined {
  const e = unwrap(body);
  if (e.kind === 'FunctionCall' && e.name === 'problem') {
    const statuses = problemStatuses(e);
    // a status problem() refuses (not 100-599) fails the step: not a status this respond answers with
    return statuses?.every((s) => s >= 100 && s <= 599) ? statuses.map(finalStatus) : undefined;
  }
  if (e.kind === 'Conditional') {
    const a = statusesOfBody(e.then);
    const b = statusesOfBody(e.else);
    return a && b ? [...a, ...b] : undefined;
  }
  // A value built here (an object, a list, a string, a for, arithmetic) is a new value, never the
  // marked value problem() returns, whatever it holds: `{ error = problem(...) }` answers 200.
  if (BUILT.has(e.kind)) return [DEFAULT_STATUS];
  // A problem() value passed through something else (a function, an index): which one is answered
  // is only known at run time. A body with no problem() call at all is a 200.
  return callsProblem(e) ? undefined : [DEFAULT_STATUS];
}

/** `problem(404, ...)` or `problem({ status = 404, ... })`: its status when written as literals. */
function problemStatuses(call: FunctionCall): number[] | undefined {
  const first = call.args[0];
  if (first === undefined || call.expandFinal) return undefined;
  const arg = unwrap(first);
  if (arg.kind !== 'ObjectCons') return literalStatuses(arg);
  const item = arg.items.find((i) => {
    const key = unwrap(i.key);
    return key.kind === 'Literal' && key.value === 'status';
  });
  return item && literalStatuses(item.value);
}

function literalStatuses(e: Expression): number[] | undefined {
  const inner = unwrap(e);
  if (inner.kind === 'Literal') return typeof inner.value === 'number' && Number.isInteger(inner.value) ? [inner.value] : undefined;
  if (inner.kind !== 'Conditional') return undefined;
  const a = literalStatuses(inner.then);
  const b = literalStatuses(inner.else);
  return a && b ? [...new Set([...a, ...b])].sort((x, y) => x - y) : undefined;
}

/** A problem's status as the response's: an interim (1xx) status is not final, the default is answered. */
function finalStatus(status: number): number {
  return status >= 200 && status <= 599 ? status : DEFAULT_STATUS;
}

/** Whether `problem(...)` is called anywhere in the expression. */
function callsProblem(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(callsProblem);
  if (node === null || typeof node !== 'object') return false;
  if ((node as { kind?: unknown }).kind === 'FunctionCall' && (node as FunctionCall).name === 'problem') return true;
  return Object.values(node).some((v) => typeof v === 'object' && callsProblem(v));
}

function unwrap(e: Expression): Expression {
  return e.kind === 'Parenthesized' ? unwrap(e.expr) : e;
}
