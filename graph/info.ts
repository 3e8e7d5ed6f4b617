/**
 * Identity of a node and the classifier signature: the leaf of the engine's types. They live apart
 * from types.ts so that errors.ts (which names a step in every StepError) and types.ts (whose node
 * definitions mention StepError) never import each other.
 */

/** Identity of a node as it appears in errors and outcomes. */
export interface StepInfo {
  /** Unique within the graph: the explicit `id`, else the `name`, else `<kind>#<n>`. */
  readonly id: string;
  /** The `steps.<name>` key, when the node has one. */
  readonly name: string | undefined;
  /** The step kind as the caller calls it: 'sql', 'respond', 'transaction'... */
  readonly kind: string;
}

/**
 * Maps a failure cause (typically a driver error) to a category string such as
 * 'dependency-unavailable' or 'conflict'; undefined = not mine, ask the next classifier.
 */
export type Classifier = (cause: unknown, step: StepInfo) => string | undefined;
