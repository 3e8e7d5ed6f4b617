/**
 * `on_error = "continue"` (src/manifest/steps.ts reads it): the step's failure becomes its output and
 * the pipeline goes on (graph's StepNodeDef.continueOnError). Its outputs say what happened:
 * - `ok`: true when it succeeded (its own outputs are there too), false when it failed;
 * - `error`: null on success; on failure the problem the request would have been answered with
 *   (`status`, `type`, `title`), its `category` (`timeout`, `dependency-unavailable`, `bad-gateway`...)
 *   and the `step`. Nothing of the cause (a driver's message, an upstream address): the failure
 *   itself goes to the log, as a failed step's does.
 */
import type { ContinueOnError, StepError } from '../../graph/index.js';
import { problemType, reasonPhrase } from '../problem/index.js';
import { failureStatus } from './failure-status.js';

export function continueOnError(report: ((error: StepError) => void) | undefined): ContinueOnError {
  return {
    failed(error) {
      report?.(error);
      const status = failureStatus(error.category);
      return {
        ok: false,
        error: { status, type: problemType(status), title: reasonPhrase(status), category: error.category, step: error.step },
      };
    },
    succeeded(output) {
      return output !== null && typeof output === 'object' ? { ...output, ok: true, error: null } : { value: output, ok: true, error: null };
    },
  };
}
