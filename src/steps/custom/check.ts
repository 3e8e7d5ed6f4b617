/**
 * A custom step's own boot check (`defineStep({ codes, check })`): the definition sees the block's
 * constant attributes and reports through its codes. The block's scope is the kind's (its `codes`
 * facet), so what `check` reports takes its code as a built-in kind's problems do.
 */
import type { Block } from '../../hcl/index.js';
import { codeIn } from '../../diag/index.js';
import { type DecodeScope, type Expr, evaluateCompiled } from '../../manifest/index.js';
import type { CustomStep, StepCheckReportOptions } from './define.js';
import { asNumber } from './node.js';

/** Runs `step.check` on a block whose attributes were read; false when it reported an error. */
export function checkCustom(
  step: CustomStep,
  block: Block,
  attributes: readonly { readonly name: string; readonly expr: Expr }[],
  scope: DecodeScope,
): boolean {
  const constants: Record<string, unknown> = {};
  for (const { name, expr } of attributes) {
    if (!expr.constant) continue;
    const v = evaluateCompiled(expr, scope);
    if (!v.ok) return false;
    // null is "not given", as `run` receives it.
    if (v.value !== null) constants[name] = asNumber(v.value, step.attributes[name]!.type ?? 'any');
  }
  let failed = false;
  const report =
    (severity: 'error' | 'warning') =>
    (summary: string, options: StepCheckReportOptions = {}) => {
      // A summary none of the codes has is the program's mistake, not the manifest's: said as such.
      if (codeIn(step.codes, summary) === undefined) {
        throw new TypeError(`step "${step.name}": check reported ${JSON.stringify(summary)}, which is not the summary of one of its codes`);
      }
      const at = options.attribute === undefined ? undefined : attributes.find((a) => a.name === options.attribute)?.expr.range;
      scope[severity](summary, at ?? block.labelRanges[0] ?? block.typeRange, options.detail !== undefined ? { detail: options.detail } : {});
      if (severity === 'error') failed = true;
    };
  step.check!(constants, { error: report('error'), warning: report('warning') });
  return !failed;
}
