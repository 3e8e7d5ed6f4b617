/**
 * The definition shape every expression function shares: one file per function, registered in
 * `index.ts`. Arity is checked at boot; argument types at run time by the implementation, which throws
 * `FunctionArgError(index, message)` (reported as "Invalid function argument" on that argument) or
 * `FunctionError(message)` (reported as "Error in function call" on the call).
 */
import type { ExprBudget } from '../budget.js';

export interface FunctionDef {
  readonly name: string;
  /** Parameter names, required then optional, for messages ("Missing value for "name""). */
  readonly params: readonly string[];
  /** Name of the variadic parameter, when the function takes any number of trailing arguments. */
  readonly variadic?: string;
  readonly minArgs: number;
  /** `Infinity` when variadic. */
  readonly maxArgs: number;
  /**
   * Pure functions depend only on their arguments: a call whose arguments are all constant is folded
   * at boot. Impure ones (uuid, now, problem: a fresh object per request) run per evaluation.
   */
  readonly pure: boolean;
  readonly impl: FunctionImpl;
  /**
   * Called once at boot with the arguments that are constants in the manifest (`undefined` where an
   * argument depends on the request): may return an implementation specialised for them, e.g. with a
   * regular expression compiled once. Throws FunctionArgError for a constant that can never work.
   */
  readonly specialize?: (constants: readonly ({ readonly value: unknown } | undefined)[]) => FunctionImpl | undefined;
}

/** `budget`: what the evaluation may still build; a function that could build far more than its arguments reserves it first (budget.ts). */
export type FunctionImpl = (args: readonly unknown[], budget: ExprBudget) => unknown;

export type FunctionTable = ReadonlyMap<string, FunctionDef>;

/** Builds a definition with arity derived from the parameter lists. */
export function defineFunction(d: {
  name: string;
  params: readonly string[];
  optional?: readonly string[];
  variadic?: string;
  pure?: boolean;
  impl: FunctionImpl;
  specialize?: FunctionDef['specialize'];
}): FunctionDef {
  const optional = d.optional ?? [];
  return {
    name: d.name,
    params: [...d.params, ...optional],
    ...(d.variadic !== undefined ? { variadic: d.variadic } : {}),
    minArgs: d.params.length,
    maxArgs: d.variadic !== undefined ? Infinity : d.params.length + optional.length,
    pure: d.pure ?? true,
    impl: d.impl,
    ...(d.specialize ? { specialize: d.specialize } : {}),
  };
}
