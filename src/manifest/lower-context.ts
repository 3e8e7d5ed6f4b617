/**
 * What a step kind's `lower` (src/steps/<kind>/spec.ts) gets to work with: the scope of its block
 * (block path, diagnostics), the tables of declared things for resolving references, and a way to
 * lower nested steps (transaction, parallel) through the same registry.
 */
import type { Block } from '../hcl/ast.js';
import type { StepSpec } from '../model/types.js';
import type { FileAccess } from './files.js';
import type { ConnectionTable, GuardNames } from './refs.js';
import type { Scope } from './scope.js';
import type { SchemaResolver } from './type-expr.js';

/** Declared things a block may reference, fixed before any endpoint is decoded. */
export interface DecodeEnv {
  readonly schemas: SchemaResolver;
  readonly guards: GuardNames;
  readonly connections: ConnectionTable;
  readonly files: FileAccess;
}

/** Where a step sits: some kinds are allowed only in some places. */
export type StepPlace = 'pipeline' | 'parallel' | 'transaction';

export interface LowerContext {
  /** The scope of the step's own block (its segment is already on the path). */
  readonly scope: Scope;
  readonly env: DecodeEnv;
  readonly place: StepPlace;
  /** Lowers the step blocks nested in `parent` (a transaction's or parallel's), in order. */
  lowerNested(blocks: readonly Block[], place: StepPlace): StepSpec[];
}
