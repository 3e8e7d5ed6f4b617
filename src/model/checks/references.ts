/**
 * What every expression of a pipeline reads, checked at boot (DECISIONS.md §2): `steps.<name>` exists,
 * ran before this point (declared order; after a `parallel`, all its branches; not a sibling branch)
 * and offers `<output>`; `ctx.<member>` and `ctx.request.<part>` exist, and `path.X`, `query.X`,
 * `headers.X` and body fields (through nested schemas) are declared.
 */
import { type Range, didYouMean } from '../../diag/index.js';
import type { Reference } from '../../expr/index.js';
import type { Expr, DecodeScope, StepSpecBase } from '../../manifest/index.js';
import { typeName, type FieldSpec, type RequestSpec, type TypeSpec } from '../../schema/index.js';
import type { StepKindModels } from '../step-kind.js';
import { allSteps, childrenOf, definedNames, kindOf, outputsOf, ownExprs, stepLabel } from './walk.js';

export const CTX_MEMBERS = ['request', 'timestamp_epoch', 'request_id', 'auth'] as const;
export const REQUEST_MEMBERS = ['method', 'path', 'query', 'headers', 'body'] as const;

interface Env {
  readonly kinds: StepKindModels;
  readonly scope: DecodeScope;
  readonly request: RequestSpec;
  readonly path: string;
  /** Every lowered step by name. */
  readonly byName: ReadonlyMap<string, StepSpecBase>;
  /** Names declared by a block whose lowering failed: already reported, not reported again. */
  readonly declared: ReadonlySet<string>;
}

export function checkReferences(
  kinds: StepKindModels,
  steps: readonly StepSpecBase[],
  request: RequestSpec,
  path: string,
  scope: DecodeScope,
  declared: ReadonlySet<string>,
): void {
  const byName = new Map<string, StepSpecBase>();
  for (const s of allSteps(kinds, steps)) if (s.name !== undefined && !byName.has(s.name)) byName.set(s.name, s);
  walkSequence(steps, new Set(), new Set(), { kinds, scope, request, path, byName, declared });
}

/** Checks a sequence; returns the names available after it. */
function walkSequence(steps: readonly StepSpecBase[], before: ReadonlySet<string>, siblings: ReadonlySet<string>, env: Env): Set<string> {
  const avail = new Set(before);
  for (const step of steps) {
    const children = childrenOf(env.kinds, step);
    if (children?.run === 'sequence') {
      // A transaction: its inner steps in order, then its own expressions (catch bodies) see them all.
      const inner = walkSequence(children.steps, avail, siblings, env);
      checkExprs(step, ownExprs(step), inner, siblings, env);
      for (const n of inner) avail.add(n);
    } else if (children?.run === 'branches') {
      // A parallel: each branch sees what ran before, never its siblings; all are visible after.
      const branches = children.steps.map((b) => definedNames(env.kinds, b));
      children.steps.forEach((branch, i) => {
        const others = new Set([...siblings, ...branches.filter((_, j) => j !== i).flat()]);
        walkSequence([branch], avail, others, env);
      });
      for (const n of branches.flat()) avail.add(n);
    } else {
      checkExprs(step, ownExprs(step), avail, siblings, env);
    }
    if (step.name !== undefined) avail.add(step.name);
  }
  return avail;
}

function checkExprs(step: StepSpecBase, exprs: readonly Expr[], avail: ReadonlySet<string>, siblings: ReadonlySet<string>, env: Env): void {
  for (const e of exprs) {
    for (const ref of e.references) {
      if (ref.root === 'steps') checkStepRef(step, ref, avail, siblings, env);
      else if (ref.root === 'ctx') checkCtxRef(step, ref, env);
    }
  }
}

function checkStepRef(step: StepSpecBase, ref: Reference, avail: ReadonlySet<string>, siblings: ReadonlySet<string>, env: Env): void {
  const [name, output] = ref.path;
  if (name === undefined || name === null) return;
  const key = String(name);
  const err = (summary: string, detail: string, suggestion?: string): void =>
    env.scope.error(summary, ref.range, { path: step.blockPath, detail, ...(suggestion !== undefined ? { suggestion } : {}) });
  const target = env.byName.get(key);
  if (!target) {
    if (env.declared.has(key)) return;
    // Steps that failed to lower are still names the author meant.
    const suggestion = didYouMean(key, [...env.byName.keys(), ...env.declared]);
    return err('Reference to undeclared step', `No step named "${key}" is declared in this endpoint.`, suggestion && `steps.${suggestion}`);
  }
  if (target === step) return err('Step reads its own output', `${stepLabel(step)} cannot read steps.${key}: its output exists only after it has run.`);
  if (siblings.has(key)) {
    return err(
      'Step read from a parallel sibling',
      `${stepLabel(target)} runs in another branch of the same parallel block, so its output is not available here; read it after the parallel block.`,
    );
  }
  if (!avail.has(key)) {
    return err(
      'Step read before it runs',
      `${stepLabel(target)} (line ${target.range.start.line}) has not run at this point; a step can read only the steps that ran before it.`,
    );
  }
  if (output === undefined || output === null) return;
  const outputs = outputsOf(env.kinds, target);
  if (!outputs || outputs.includes(String(output))) return;
  const hint = kindOf(env.kinds, target).outputsHint?.(target);
  err(
    'Unsupported attribute',
    `${stepLabel(target)} has no output "${String(output)}"; its outputs are ${outputs.join(', ')}${hint ? ` (${hint})` : ''}.`,
    didYouMean(String(output), outputs),
  );
}

function checkCtxRef(step: StepSpecBase, ref: Reference, env: Env): void {
  const p = ref.path;
  const err = (summary: string, detail: string, suggestion?: string): void =>
    env.scope.error(summary, ref.range, { path: step.blockPath, detail, ...(suggestion !== undefined ? { suggestion } : {}) });
  const member = p[0];
  if (member === undefined || member === null) return;
  if (!(CTX_MEMBERS as readonly unknown[]).includes(member)) {
    return err(
      'Unsupported attribute',
      `ctx has no member "${String(member)}"; its members are ${CTX_MEMBERS.join(', ')}.`,
      didYouMean(String(member), CTX_MEMBERS),
    );
  }
  if (member !== 'request') return;
  const part = p[1];
  if (part === undefined || part === null) return;
  if (!(REQUEST_MEMBERS as readonly unknown[]).includes(part)) {
    return err(
      'Unsupported attribute',
      `ctx.request has no member "${String(part)}"; its members are ${REQUEST_MEMBERS.join(', ')}.`,
      didYouMean(String(part), REQUEST_MEMBERS),
    );
  }
  const name = p[2];
  switch (part) {
    case 'path':
    case 'query':
    case 'headers': {
      if (name === undefined || name === null) return;
      const fields = part === 'headers' ? env.request.headers : env.request[part];
      const key = String(name);
      if (fields.some((f) => f.name === key)) return;
      const names = fields.map((f) => f.name);
      if (part === 'headers' && names.includes(key.toLowerCase())) {
        return err('Header names are lower-case', `Headers are read by their lower-case name: ctx.request.headers.${key.toLowerCase()}.`, key.toLowerCase());
      }
      const what = part === 'path' ? 'path parameter' : part === 'query' ? 'query parameter' : 'header';
      const declaredIn = part === 'path' ? `the path "${env.path}" has no {${key}}` : `the endpoint's request block declares no ${what} "${key}"`;
      return err(`Undeclared ${what}`, `ctx.request.${part}.${key} is read, but ${declaredIn}.`, didYouMean(key, names));
    }
    case 'body': {
      if (!env.request.body) {
        return err(
          'Undeclared request body',
          'ctx.request.body is read, but the endpoint declares no request body (request { body = schema.<name> } or body { ... }).',
        );
      }
      checkFieldPath(env.request.body, p.slice(2), 'ctx.request.body', ref.range, step, env);
      return;
    }
    default:
      return;
  }
}

function suggest(suggestion: string | undefined): { suggestion?: string } {
  return suggestion !== undefined ? { suggestion } : {};
}

/** Follows `.a.b[0].c` through declared object fields; stops at map, any and dynamic steps. */
function checkFieldPath(type: TypeSpec, path: readonly (string | number | null)[], shown: string, range: Range, step: StepSpecBase, env: Env): void {
  let t: TypeSpec = type;
  let where = shown;
  for (const key of path) {
    if (key === null) {
      if (t.kind === 'list') t = t.items;
      else if (t.kind === 'map') t = t.values;
      else return;
      where += '[*]';
      continue;
    }
    if (t.kind === 'list') {
      if (typeof key !== 'number') {
        env.scope.error('Unsupported attribute', range, { path: step.blockPath, detail: `${where} is a list; index it with a number.` });
        return;
      }
      t = t.items;
      where += `[${key}]`;
      continue;
    }
    if (t.kind === 'map') {
      t = t.values;
      where += `.${String(key)}`;
      continue;
    }
    if (t.kind !== 'object') {
      if (t.kind === 'any') return;
      env.scope.error('Unsupported attribute', range, { path: step.blockPath, detail: `${where} is ${typeName(t)}; it has no member "${String(key)}".` });
      return;
    }
    const field: FieldSpec | undefined = t.fields.find((f) => f.name === String(key));
    if (!field) {
      const names = t.fields.map((f) => f.name);
      env.scope.error('Undeclared body field', range, {
        path: step.blockPath,
        detail: `${where}.${String(key)} is read, but ${t.name ? `schema "${t.name}"` : 'the declared body'} has no field "${String(key)}".`,
        ...suggest(didYouMean(String(key), names)),
      });
      return;
    }
    t = field.type;
    where += `.${String(key)}`;
  }
}
