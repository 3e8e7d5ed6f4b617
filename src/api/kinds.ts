/**
 * The step kinds a service is built with: this release's, then the embedding program's own. Passed
 * down through the load and compile options, so two services in one process may have different
 * kinds and nothing global changes.
 */
import { DIAGNOSTIC_CODES } from '../diag/index.js';
import { customStepKind, STEP_KINDS, type AnyStepKindDefinition, type CustomStep } from '../steps/index.js';

/**
 * Throws a TypeError when a custom kind takes a built-in kind's block type, or two share a name, or
 * a custom kind's code is one svc or another kind already has (`defineStep` checked its form).
 */
export function stepKindsWith(custom: readonly CustomStep[]): readonly AnyStepKindDefinition[] {
  if (custom.length === 0) return STEP_KINDS;
  const codes = new Map<string, string>(DIAGNOSTIC_CODES.map((c) => [c.code, "svc's own"]));
  for (const kind of STEP_KINDS) for (const c of kind.codes ?? []) codes.set(c.code, `the built-in "${kind.kind}" step's`);
  const taken = new Map<string, string>();
  for (const kind of STEP_KINDS) for (const type of Object.keys(kind.blocks)) taken.set(type, `the built-in "${kind.kind}" step`);
  // Block types that are not steps but stand beside them in an endpoint.
  for (const type of ['request', 'pipeline', 'openapi', 'rate_limit', 'cors', 'after_response']) taken.set(type, `svc's "${type}" block`);
  const kinds: AnyStepKindDefinition[] = [...STEP_KINDS];
  for (const step of custom) {
    if (step === null || typeof step !== 'object' || typeof step.run !== 'function') {
      throw new TypeError('steps: each step kind comes from defineStep(...)');
    }
    const clash = taken.get(step.name);
    if (clash !== undefined) throw new TypeError(`step kind "${step.name}": the name is ${clash}`);
    taken.set(step.name, `another custom step's`);
    for (const { code } of step.codes ?? []) {
      const owner = codes.get(code);
      if (owner !== undefined) throw new TypeError(`step kind "${step.name}": code ${code} is already ${owner}`);
      codes.set(code, `the custom "${step.name}" step's`);
    }
    kinds.push(customStepKind(step));
  }
  return kinds;
}
