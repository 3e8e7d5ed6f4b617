/**
 * Scopes, resolved at compile time so that evaluation never looks a name up in a Map: root variables
 * (`ctx`, `steps`) from `evaluate`'s `vars`, locals (for key/value, `%{for}`, the splat item) in fixed
 * slots of a per-evaluation frame. HCL has no recursion, so one frame per evaluation is enough.
 */
import type { ExprBudget } from './budget.js';

export type Vars = Readonly<Record<string, unknown>>;
export type Frame = unknown[];
/**
 * A compiled (sub)expression. `budget`: what the evaluation may still build (budget.ts), handed down
 * to every node and function.
 */
export type Evaluator = (vars: Vars, frame: Frame, budget: ExprBudget) => unknown;

/** Slot allocation for one top-level expression. */
export class FrameLayout {
  size = 0;
  allocate(): number {
    return this.size++;
  }
}

/** A compile-time scope: the root names allowed and a chain of local bindings. */
export class ExprScope {
  private constructor(
    readonly roots: ReadonlySet<string>,
    readonly layout: FrameLayout,
    private readonly locals: ReadonlyMap<string, number>,
    private readonly parent: ExprScope | undefined,
    /** The slot of the innermost enclosing splat's item, read by `SplatItem`. */
    readonly splatSlot: number | undefined,
  ) {}

  static root(roots: ReadonlySet<string>): ExprScope {
    return new ExprScope(roots, new FrameLayout(), new Map(), undefined, undefined);
  }

  /** A child scope binding `names` to fresh slots (returned in the same order). */
  bind(names: readonly string[]): { scope: ExprScope; slots: number[] } {
    const map = new Map<string, number>();
    const slots = names.map((n) => {
      const slot = this.layout.allocate();
      map.set(n, slot);
      return slot;
    });
    return { scope: new ExprScope(this.roots, this.layout, map, this, this.splatSlot), slots };
  }

  /** A child scope with one anonymous slot, the splat item. */
  splat(): { scope: ExprScope; slot: number } {
    const slot = this.layout.allocate();
    return { scope: new ExprScope(this.roots, this.layout, new Map(), this, slot), slot };
  }

  local(name: string): number | undefined {
    for (let s: ExprScope | undefined = this; s; s = s.parent) {
      const slot = s.locals.get(name);
      if (slot !== undefined) return slot;
    }
    return undefined;
  }

  /** Every name visible here, for did-you-mean suggestions. */
  names(): string[] {
    const out = new Set<string>(this.roots);
    for (let s: ExprScope | undefined = this; s; s = s.parent) for (const n of s.locals.keys()) out.add(n);
    return [...out];
  }
}

/** The frame handed to evaluators of expressions without locals: never written. */
export const EMPTY_FRAME: Frame = Object.freeze([]) as unknown as Frame;
