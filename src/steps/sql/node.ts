/**
 * `sql` as a graph step: `@name` parameters bound as `$n` (never interpolated), run on a pooled client
 * (or its transaction's) as a statement prepared once per connection. The step's signal reaches the
 * connector, which cancels the query on the server. Outputs (SPEC.md §2.5): `row`, `rows`,
 * `rows_affected`; with `stream = true` a cursor (./stream.ts); with `listen`, notifications
 * (./listen-node.ts).
 */
import { createHash } from 'node:crypto';
import type { RunContext, StepNodeDef } from '../../../graph/index.js';
import type { SqlHandle, SqlResult, SqlSession } from '../../connectors/index.js';
import type { Expr } from '../../model/index.js';
import type { EndpointScope } from '../contract.js';
import type { NodeCompiler } from '../definition.js';
import { caughtExit } from './catch.js';
import { locatedFailure } from './failure.js';
import { compileListen } from './listen-node.js';
import { toParameter, toPlaceholders } from './parameters.js';
import type { SqlStepSpec } from './spec.js';
import { streamRows } from './stream.js';

export interface SqlOutput {
  readonly row: Record<string, unknown> | null;
  readonly rows: readonly Record<string, unknown>[];
  readonly rows_affected: number;
}

export const compileSql: NodeCompiler<SqlStepSpec> = (spec, env) => {
  // The decoder takes listen = ... on postgres connections only.
  if (spec.listen !== undefined)
    return compileListen(spec, spec.listen, spec.connection && env.connection({ kind: 'postgres', name: spec.connection.name }), env);
  const handle = spec.connection ? env.sqlConnection(spec.connection) : undefined;
  // A step in a transaction runs on the transaction's connection, of the transaction's engine.
  const engine = handle ?? (spec.transactionConnection && env.sqlConnection(spec.transactionConnection));
  const { text, occurrences } = toPlaceholders(spec.query, spec.parameters, engine?.placeholders ?? 'dollar');
  const valuesOf = inOccurrenceOrder(parameterValues(spec), occurrences);
  // Named by its text: the same statement shares one server-side prepared statement per connection,
  // and a name can never stand for two texts (the server would refuse the second). A connection with
  // `prepared_statements = false` sends it unnamed (the connector drops the name).
  const name = `svc_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  const timeoutMs = spec.timeoutMs;
  const node: StepNodeDef<EndpointScope> = {
    type: 'step',
    kind: 'sql',
    id: env.idOf(spec),
    name: spec.name,
    // `svc graph` shows where the query runs: its connection, or its transaction's client.
    label: `${spec.connection ? `on ${spec.connection.name}` : 'in transaction'}${spec.stream ? ', streamed' : ''}: ${firstLine(spec.query)}`,
    reads: env.readsOf([...spec.args.values(), spec.argsMap, ...spec.catches.flatMap((c) => [c.body, c.headers])]),
    meta: spec,
    ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}),
    run: spec.stream ? streamRows(streamHandle(spec, handle), text, valuesOf, (error) => locatedFailure(spec, error, env.model.sources)) : run,
  };
  function run(scope: EndpointScope, ctx: RunContext): Promise<unknown> {
    const values = valuesOf(scope);
    const target: SqlHandle | SqlSession | undefined = scope.session ?? handle;
    // The model puts every sql step either on a connection or in a transaction; never neither.
    if (target === undefined) throw new Error(`sql "${spec.name}" has no connection and no transaction`);
    // The step's own life ending abnormally (its time-out, which the graph enforces, a teardown, a
    // failing sibling, the client gone) interrupts the query: the connector cancels it on the
    // server. Through `onRelease`, not `ctx.signal`: no AbortController and no timer per query
    // (bench/users), and nothing to do when the step ends normally.
    const query = target.query({ text, values, name }, { interruptWith: (interrupt) => ctx.onRelease((reason) => reason !== undefined && interrupt(reason)) });
    return query.then(toOutput, (error: unknown) => {
      const exit = caughtExit(spec.catches, error, scope);
      if (exit) return exit;
      throw locatedFailure(spec, error, env.model.sources);
    });
  }
  return node;
};

/** A computed `args` that gives no value for a parameter, or is no map. */
class SqlArgsError extends Error {
  override readonly name = 'SqlArgsError';
}

/** The values of the query's parameters, in order, from the literal `args` or the computed map. */
function parameterValues(spec: SqlStepSpec): (scope: EndpointScope) => unknown[] {
  const { argsMap, parameters } = spec;
  if (argsMap === undefined) {
    const args: readonly Expr[] = parameters.map((p) => spec.args.get(p)!);
    return (scope) => args.map((a) => toParameter(a.evaluate(scope)));
  }
  return (scope) => {
    const map = argsMap.evaluate(scope);
    if (map === null || typeof map !== 'object' || Array.isArray(map)) {
      throw new SqlArgsError(
        `sql "${spec.name}": args must be a map of @name values, got ${Array.isArray(map) ? 'a list' : map === null ? 'null' : typeof map}`,
      );
    }
    return parameters.map((p) => {
      if (!Object.hasOwn(map, p)) throw new SqlArgsError(`sql "${spec.name}": args has no value for @${p}`);
      return toParameter((map as Record<string, unknown>)[p]);
    });
  };
}

/** For MySQL's `?`: one value per occurrence of a name, in the text's order. */
function inOccurrenceOrder(valuesOf: (scope: EndpointScope) => unknown[], occurrences: readonly number[] | undefined): (scope: EndpointScope) => unknown[] {
  if (occurrences === undefined) return valuesOf;
  return (scope) => {
    const values = valuesOf(scope);
    return occurrences.map((n) => values[n]);
  };
}

/** The decoder refuses stream = true inside a transaction: a streaming step has its own connection. */
function streamHandle(spec: SqlStepSpec, handle: SqlHandle | undefined): SqlHandle {
  if (handle === undefined) throw new Error(`sql "${spec.name}" streams but has no connection`);
  return handle;
}

function toOutput(result: SqlResult): SqlOutput {
  return { row: result.rows[0] ?? null, rows: result.rows, rows_affected: result.rowCount ?? 0 };
}

function firstLine(query: string): string {
  const line = query.trim().split('\n')[0]!.trim();
  return line.length > 60 ? line.slice(0, 57) + '...' : line;
}
