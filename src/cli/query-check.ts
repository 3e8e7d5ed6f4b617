/**
 * Queries checked against a database (docs/postgresql.md "Checking queries against the database",
 * docs/sqlite.md and docs/mysql.md "Checking queries"): every sql step's statement described by its
 * engine (PostgreSQL, SQLite, MySQL/MariaDB) without running it, a refused one reported as a
 * diagnostic inside the query, the columns of the others kept for the OpenAPI document.
 *
 * - `svc check --database URL` / `svc openapi --database URL`: on a database named on the command
 *   line (`name=URL` per connection, a bare URL for the one connection of its engine in a manifest),
 *   the connection's pending migrations applied first and undone after (src/connectors
 *   `describeOnDatabase` says how on each engine);
 * - `check_queries = true` on a connection: `svc serve` does the same on the connection itself, after
 *   its migrations, and refuses to start on a refused query.
 *
 * Either way, a `respond` or `stream` whose declared `schema` its rows cannot satisfy is reported too
 * (./contract-check.ts).
 */
import { messageOf } from '../../graph/index.js';
import { describeOnDatabase, redactUrl, sqlKindOfUrl, uncheckableReason, type ColumnDescription, type StatementReport } from '../connectors/index.js';
import type { Diagnostic } from '../diag/index.js';
import { isSqlKind, type ConnectionModel, type ServiceModel, type SqlKind, type StepSpecBase } from '../model/index.js';
import { refusedStatement, sqlStatements, type SqlStatement } from '../steps/index.js';
import { UsageError } from './args.js';
import { contractDiagnostics } from './contract-check.js';

export interface QueryCheck {
  readonly diagnostics: readonly Diagnostic[];
  /** The row columns of each described sql step that returns rows: the OpenAPI document's types. */
  readonly columns: ReadonlyMap<StepSpecBase, readonly ColumnDescription[]>;
}

/**
 * The `--database` values as connection key (`<kind>.<name>`) -> URL, for `model`'s SQL
 * connections. Throws a UsageError for a value that names no SQL connection, a bare URL where the
 * manifest has not exactly one connection of the URL's engine, a connection given twice, or a URL
 * that cannot be opened for a check (with why).
 */
export function databaseTargets(values: readonly string[], model: ServiceModel): Map<string, string> {
  const sql = [...model.connections.values()].filter((c) => isSqlKind(c.kind));
  const names = sql.map((c) => c.name);
  const targets = new Map<string, string>();
  for (const value of values) {
    const named = /^([A-Za-z_][A-Za-z0-9_-]*)=(.*)$/s.exec(value);
    const url = named ? named[2]! : value;
    const engine = sqlKindOfUrl(url);
    let connection: ConnectionModel;
    if (named) {
      const candidates = sql.filter((c) => c.name === named[1]);
      if (candidates.length === 0) throw new UsageError(`--database ${named[1]}=...: the manifest declares no SQL connection "${named[1]}"${declared(names)}`);
      // Two engines may each have a connection of that name: the URL's engine tells which.
      connection = candidates.find((c) => c.kind === engine) ?? candidates[0]!;
    } else {
      const label = redactUrl(value);
      if (engine === undefined)
        throw new UsageError(`--database ${label}: not a postgres://, pglite:, sqlite: or mysql:// URL; give <connection>=<url>${declared(names)}`);
      const ofEngine = sql.filter((c) => c.kind === engine);
      if (ofEngine.length === 0) throw new UsageError(`--database ${label}: the manifest declares no ${engine} connection${declared(names)}`);
      if (ofEngine.length > 1) {
        throw new UsageError(
          `--database ${label}: the manifest has ${ofEngine.length} ${engine} connections; give each as --database <name>=<url>${declared(ofEngine.map((c) => c.name))}`,
        );
      }
      connection = ofEngine[0]!;
    }
    const key = connectionKey(connection);
    if (targets.has(key)) throw new UsageError(`--database: connection "${connection.name}" is given twice`);
    const why = uncheckableReason(connection.kind as SqlKind, url);
    if (why !== undefined) throw new UsageError(`--database ${connection.name}=${redactUrl(url)}: ${why}`);
    targets.set(key, url);
  }
  return targets;
}

/** A connection's key in the model and in the targets: `<kind>.<name>`. */
function connectionKey(connection: Pick<ConnectionModel, 'kind' | 'name'>): string {
  return `${connection.kind}.${connection.name}`;
}

/** The database of a `--database` value, as messages name it (no password). */
function databaseLabel(url: string): string {
  if (url.startsWith('pglite:')) return 'pglite: (in memory)';
  if (url === 'sqlite::memory:') return 'sqlite::memory: (in memory)';
  return redactUrl(url);
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
      const url = targets.get(connectionKey(connection))!;
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

/** Describes the statements of the `connections` (keys: `<kind>.<name>`) with `describe`, and reports. */
export async function checkQueries(
  model: ServiceModel,
  connections: readonly string[],
  describe: Describer,
  database: (connection: string) => string,
): Promise<QueryCheck> {
  const byConnection = new Map<string, SqlStatement[]>();
  for (const statement of sqlStatements(model)) {
    const key = connectionKey({ kind: statement.kind, name: statement.connection });
    if (!connections.includes(key)) continue;
    if (!byConnection.has(key)) byConnection.set(key, []);
    byConnection.get(key)!.push(statement);
  }
  const diagnostics: Diagnostic[] = [];
  const columns = new Map<StepSpecBase, readonly ColumnDescription[]>();
  for (const name of connections) {
    const statements = byConnection.get(name) ?? [];
    const connection = model.connections.get(name);
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
