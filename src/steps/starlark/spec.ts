/** `starlark "<name>" { source | file, max_steps, timeout }`: the code defines `execute(ctx)`. */
import type { Range } from '../../diag/index.js';
import type { StepSpecBase } from '../../manifest/index.js';
import type { ModuleSources } from './modules.js';

export interface StarlarkStepSpec extends StepSpecBase {
  readonly kind: 'starlark';
  readonly name: string;
  /** The program text (inline `source`, or the contents of `file` read at boot). */
  readonly source: string;
  /** Name to report Starlark errors under: the `.star` file, or the manifest file for inline code. */
  readonly sourceName: string;
  /**
   * For inline code: the string expression's range in the manifest, from which placement.ts finds
   * where each program line lies, so that every Starlark position names the manifest's line and column.
   */
  readonly sourceRange?: Range;
  /** `file`, resolved against the declaring manifest file's directory. */
  readonly file?: string;
  /** The files its `load` statements name, transitively, read at boot (./modules.ts). */
  readonly modules?: ModuleSources;
  /** What its `load` paths are relative to: the directory of `file`, or of the manifest file. */
  readonly moduleDir?: string;
  readonly maxSteps?: number;
  readonly timeoutMs?: number;
}
