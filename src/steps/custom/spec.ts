/** A custom step's block, decoded: its label and each given attribute's expression. */
import type { Expr, StepSpecBase } from '../../manifest/index.js';
import type { JsonSchema } from './define.js';

export interface CustomStepSpec extends StepSpecBase {
  /** The definition's name, which is also its block type. */
  readonly kind: string;
  readonly name: string;
  /** The attributes the block gives, in the definition's order. */
  readonly attributes: readonly { readonly name: string; readonly expr: Expr }[];
  readonly timeoutMs?: number;
  /** The definition's schemas of its outputs and of a stream's items, for the OpenAPI document (src/openapi/step-views.ts). */
  readonly outputSchemas?: Readonly<Record<string, JsonSchema>>;
  readonly itemSchema?: JsonSchema;
}
