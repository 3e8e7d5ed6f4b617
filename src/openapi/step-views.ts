/**
 * What the document reads of the steps beyond what their kinds tell the model: outputs read by other
 * steps' expressions (step-outputs.ts), `catch` blocks, nested steps. src/openapi and src/steps are
 * peers that do not import each other, so these are structural views selected by `kind`;
 * test/openapi/step-views.test.ts holds each to the spec type src/steps decodes, so a change there
 * fails the type check rather than silently dropping a schema.
 */
import type { CatchSpec, StepSpecBase } from '../model/index.js';
import type { JsonSchema } from '../schema/index.js';

/** An `sql` step: its query names the row's columns. */
export interface SqlView extends StepSpecBase {
  readonly kind: 'sql';
  readonly name: string;
  readonly query: string;
  readonly stream: boolean;
  readonly catches: readonly CatchSpec[];
}

export interface HttpView extends StepSpecBase {
  readonly kind: 'http';
  readonly name: string;
  readonly stream: boolean;
}

export interface RedisView extends StepSpecBase {
  readonly kind: 'redis';
  readonly name: string;
  readonly op: string;
}

/** A step that holds steps (`parallel`, `transaction`). */
interface ParentView extends StepSpecBase {
  readonly steps: readonly StepSpecBase[];
}

/** A step with `catch` blocks (`sql`, `transaction`). */
interface CatchingView extends StepSpecBase {
  readonly catches: readonly CatchSpec[];
}

export const isSql = (s: StepSpecBase): s is SqlView => s.kind === 'sql';

/**
 * A step of an embedding program's own kind (src/steps/custom) whose definition gave its outputs'
 * schemas or its stream items' schema; its kind is any name, so it is known by these members.
 */
export interface DeclaredOutputsView extends StepSpecBase {
  readonly outputSchemas?: Readonly<Record<string, JsonSchema>>;
  readonly itemSchema?: JsonSchema;
}

export const declaresOutputs = (s: StepSpecBase): s is DeclaredOutputsView => 'outputSchemas' in s || 'itemSchema' in s;
export const isHttp = (s: StepSpecBase): s is HttpView => s.kind === 'http';
export const isRedis = (s: StepSpecBase): s is RedisView => s.kind === 'redis';

/** The nested steps of a step, if it holds any. */
export function childrenOf(s: StepSpecBase): readonly StepSpecBase[] {
  const steps = (s as Partial<ParentView>).steps;
  return Array.isArray(steps) ? steps : [];
}

/** The `catch` blocks of a step, if it has any. */
export function catchesOf(s: StepSpecBase): readonly CatchSpec[] {
  const catches = (s as Partial<CatchingView>).catches;
  return Array.isArray(catches) ? catches : [];
}

/** Every step of a pipeline, nested ones included, in declared order (a parent before its children). */
export function allSteps(steps: readonly StepSpecBase[]): StepSpecBase[] {
  const out: StepSpecBase[] = [];
  const visit = (list: readonly StepSpecBase[]): void => {
    for (const s of list) {
      out.push(s);
      visit(childrenOf(s));
    }
  };
  visit(steps);
  return out;
}
