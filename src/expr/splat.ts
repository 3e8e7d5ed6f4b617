/**
 * Splat: `list[*].a.b` (full) and `list.*.a` (attribute-only). The parser gives `each`, an expression over
 * a `SplatItem` standing for the element; the compiler binds that item to a frame slot.
 *
 * As HCL: a null source gives an empty tuple, a non-list source is wrapped as a one-element tuple
 * (`obj.*.id` = `[obj.id]`), and objects are not iterated.
 */
import type { Range } from '../diag/index.js';
import { chargeItems } from './budget.js';
import type { Evaluator } from './scope.js';

/** Each element gone through is charged to the size budget (a splat inside a `for` multiplies). */
export function splat(source: Evaluator, slot: number, each: Evaluator, range: Range): Evaluator {
  return (v, f, budget) => {
    const s = source(v, f, budget);
    if (s === null || s === undefined) return [];
    if (!Array.isArray(s)) {
      f[slot] = s;
      return [each(v, f, budget)];
    }
    chargeItems(budget, s.length, range);
    const out = new Array<unknown>(s.length);
    for (let i = 0; i < s.length; i++) {
      f[slot] = s[i] ?? null;
      out[i] = each(v, f, budget);
    }
    return out;
  };
}
