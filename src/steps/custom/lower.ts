/**
 * A custom step's block -> CustomStepSpec, with the diagnostics of a built-in kind: an unknown
 * attribute (with did-you-mean) and a missing required one from the body schema, a constant of the
 * wrong type from `readExpr`. Expressions may read `ctx.*` and `steps.*`, checked like any step's.
 * Then the definition's own `check` (./check.ts) sees the block's constants.
 */
import type { Block } from '../../hcl/index.js';
import { type AttrRule, type BodySchema, type LowerContext, type ValueKind, decodeBody, readDuration, readExpr } from '../../manifest/index.js';
import { checkCustom } from './check.js';
import type { CustomStep } from './define.js';
import type { CustomStepSpec } from './spec.js';

export function lowerCustom(step: CustomStep): (block: Block, cx: LowerContext) => CustomStepSpec | undefined {
  const rules: Record<string, AttrRule> = { timeout: {} };
  for (const [name, rule] of Object.entries(step.attributes)) rules[name] = rule.required === true ? { required: true } : {};
  const body: BodySchema = { attributes: rules };
  return (block, cx) => {
    const s = cx.scope;
    const d = decodeBody(block.body, body, s, block);
    const attributes: { name: string; expr: CustomStepSpec['attributes'][number]['expr'] }[] = [];
    let failed = false;
    for (const [name, rule] of Object.entries(step.attributes)) {
      const attr = d.attrs.get(name);
      if (attr === undefined) {
        // decodeBody has reported a missing required one.
        if (rule.required === true) failed = true;
        continue;
      }
      const expr = readExpr(attr, s, valueKind(rule.type));
      if (expr === undefined) failed = true;
      else attributes.push({ name, expr });
    }
    const timeoutMs = readDuration(d.attrs.get('timeout'), s);
    if (failed) return undefined;
    if (step.check !== undefined && !checkCustom(step, block, attributes, s)) return undefined;
    return {
      kind: step.name,
      name: block.labels[0]!,
      attributes,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(step.outputSchemas !== undefined ? { outputSchemas: step.outputSchemas } : {}),
      ...(step.items !== undefined ? { itemSchema: step.items } : {}),
      range: block.range,
      blockPath: s.path,
    };
  };
}

function valueKind(type: CustomStep['attributes'][string]['type']): ValueKind | undefined {
  return type === undefined || type === 'any' ? undefined : type;
}
