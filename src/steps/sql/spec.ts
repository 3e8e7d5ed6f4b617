/**
 * `sql "<name>" { connection, query, args, stream, timeout, catch "<code>" { status, body } }`, or
 * `sql "<name>" { connection, listen, timeout }`: LISTEN on a channel, output `stream` (./listen.ts).
 */
import type { Range } from '../../diag/index.js';
import type { CatchSpec, ConnectionRef, Expr, StepSpecBase } from '../../manifest/index.js';

export interface SqlStepSpec extends StepSpecBase {
  readonly kind: 'sql';
  readonly name: string;
  /** Absent only inside a `transaction`, whose client the step uses. */
  readonly connection?: ConnectionRef;
  /** Inside a `transaction`: its connection, whose engine decides how parameters are written. */
  readonly transactionConnection?: ConnectionRef;
  /** The SQL text with named parameters `@name`; always static (values go through `args`). `''` with `listen`. */
  readonly query: string;
  /** Where the query's string is written (absent with `listen`): errors inside it point into it (./query-position.ts). */
  readonly queryRange?: Range;
  /** Distinct `@name` parameters in order of first appearance; each has an entry in `args`. */
  readonly parameters: readonly string[];
  readonly args: ReadonlyMap<string, Expr>;
  /**
   * `args = <an expression giving a map>` (`merge(...)`, `steps.x.row`), instead of the literal
   * `{ name = expr }` form: evaluated once per request, each `@name` takes its key (a missing key
   * fails the step). `args` is then empty.
   */
  readonly argsMap?: Expr;
  /** `stream = true`: output `stream` (rows one by one) instead of `row`/`rows`/`rows_affected`. */
  readonly stream: boolean;
  /** `listen = <channel>`: no query; output `stream`, the channel's notifications as they come. */
  readonly listen?: Expr;
  readonly timeoutMs?: number;
  readonly catches: readonly CatchSpec[];
}
