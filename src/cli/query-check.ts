/**
 * Queries checked against a database (docs/postgresql.md "Checking queries against the database"): every sql
 * step's statement described by PostgreSQL without running it, a refused one reported as a
 * diagnostic inside the query, the columns of the others kept for the OpenAPI document.
 *
 * - `svc check --database URL` / `svc openapi --database URL`: on a database named on the command
 *   line (`name=URL` per connection, a bare URL for the one postgres connection of a manifest), the
 *   connection's pending migrations applied first in a transaction rolled back after;
 * - `check_queries = true` on a connection: `svc serve` does the same on the connection itself, after
 *   its migrations, and refuses to start on a refused query.
 *
 * Either way, a `respond` or `stream` whose declared `schema` its rows cannot satisfy is reported too
 * (./contract-check.ts).
 */
import { messageOf } from '../../graph/index.js';
import { checkableDatabaseUrl, describeOnDatabase, redactUrl, type ColumnDescription, type StatementReport } from '../connectors/index.js';
import type { Diagnostic } from '../diag/index.js';
import type { ConnectionModel, ServiceModel, StepSpecBase } from '../model/index.js';
import { refusedStatement, sqlStatements, type SqlStatement } from '../steps/index.js';
import { UsageError } from './args.js';
import { contractDiagnostics } from './contract-check.js';

export interface QueryCheck {
  readonly diagnostics: readonly Diagnostic[];
  /** The row columns of each described sql step that returns rows: the OpenAPI document's types. */
  readonly columns: ReadonlyMap<StepSpecBase, readonly ColumnDescription[]>;
}

/**
 * The `--database` values as connection name -> URL, for `model`'s postgres connections. Throws a
 * UsageError for a value that names no postgres connection, a bare URL where the manifest has not
 * exactly one, a connection given twice, or a URL that cannot be opened for a check.
 */
export function databaseTargets(values: readonly string[], model: ServiceModel): Map<string, string> {
  const postgres = [...model.connections.values()].filter((c) => c.kind === 'postgres').map((c) => c.name);
  const targets = new Map<string, string>();
  for (const value of values) {
    const named = /^([A-Za-z_][A-Za-z0-9_-]*)=(.*)$/s.exec(value);
    let name: string;
    let url: string;
    if (named) {
      name = named[1]!;
      url = named[2]!;
      if (!postgres.includes(name)) throw new UsageError(`--database ${name}=...: the manifest declares no postgres connection "${name}"${declared(postgres)}`);
    } else {
      if (postgres.length === 0) throw new UsageError(`--database: the manifest declares no postgres connection`);
      if (postgres.length > 1) {
        throw new UsageError(
          `--database ${redactUrl(value)}: the manifest has ${postgres.length} postgres connections; give each as --database <name>=<url>${declared(postgres)}`,
        );
      }
      name = postgres[0]!;
      url = value;
    }
    if (targets.has(name)) throw new UsageError(`--database: connection "${name}" is given twice`);
    if (!checkableDatabaseUrl(url)) {
      throw new UsageError(
        `--database ${name}=${redactUrl(url)}: give a postgres:// URL, or pglite: for an in-memory database (a pglite directory is not opened: a running server may hold it)`,
      );
    }
    targets.set(name, url);
  }
  return targets;
}

/** The database of a `--database` value, as messages name it (no password). */
function databaseLabel(url: string): string {
  return url.startsWith('pglite:') ? 'pglite: (in memory)' : redactUrl(url);
}

function declared(names: readonly string[]): string {
  return names.length === 0 ? '' : ` (declared: ${names.join(', ')})`;
}

/** Describes the statements of each connection in `targets` on its URL (see the file's comment). */
export async function checkQueriesOnDatabases(model: ServiceModel, targets: ReadonlyMap<string, string>): Promise<QueryCheck> {
  return checkQueries(
    model,
    [...targets.keys()],
    async (connection, statements) => {
      const url = targets.get(connection.name)!;
      try {
        return await describeOnDatabase(url, connection.migrations, statements);
      } catch (error) {
        return notChecked(connection, databaseLabel(url), error);
      }
    },
    (name) => databaseLabel(targets.get(name)!),
  );
}

/** A way to describe a connection's statements, or the diagnostic saying why they could not be. */
export type Describer = (connection: ConnectionModel, statements: readonly string[]) => Promise<readonly StatementReport[] | Diagnostic>;

/** Describes the statements of the `connections` (names) with `describe`, and reports. */
export async function checkQueries(
  model: ServiceModel,
  connections: readonly string[],
  describe: Describer,
  database: (connection: string) => string,
): Promise<QueryCheck> {
  const byConnection = new Map<string, SqlStatement[]>();
  for (const statement of sqlStatements(model)) {
    if (!connections.includes(statement.connection)) continue;
    if (!byConnection.has(statement.connection)) byConnection.set(statement.connection, []);
    byConnection.get(statement.connection)!.push(statement);
  }
  const diagnostics: Diagnostic[] = [];
  const columns = new Map<StepSpecBase, readonly ColumnDescription[]>();
  for (const name of connections) {
    const statements = byConnection.get(name) ?? [];
    const connection = model.connections.get(`postgres.${name}`);
    if (connection === undefined || statements.length === 0) continue;
    const reports = await describe(
      connection,
      statements.map((s) => s.text),
    );
    if (!Array.isArray(reports)) {
      diagnostics.push(reports as Diagnostic);
      continue;
    }
    (reports as readonly StatementReport[]).forEach((report, i) => {
      const statement = statements[i]!;
      if (!report.ok) diagnostics.push(refusedStatement(statement, report.error, model.sources, database(name)));
      else if (report.columns !== undefined) columns.set(statement.step, report.columns);
    });
  }
  // Declared response schemas against the rows they are given (./contract-check.ts).
  diagnostics.push(...contractDiagnostics(model, columns));
  return { diagnostics, columns };
}

/** Why a connection's queries could not be checked: it could not be reached, or a migration failed. */
export function notChecked(connection: ConnectionModel, database: string, error: unknown): Diagnostic {
  return {
    severity: 'error',
    summary: 'Queries not checked on the database',
    detail: `The queries on connection "${connection.name}" were not checked on ${database}: ${failureMessage(error)}`,
    subject: connection.urlRange ?? connection.range,
  };
}

/** Node's AggregateError (every address of a host refused) has an empty message; its parts do not. */
function failureMessage(error: unknown): string {
  if (error instanceof AggregateError && error.message === '' && error.errors.length > 0) return failureMessage(error.errors[0]);
  return messageOf(error);
}
