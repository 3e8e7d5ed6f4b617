/**
 * `check_queries = true` on a SQL connection (PostgreSQL, SQLite, MySQL): at every boot and reload of `svc serve`, once the
 * connection is open and its migrations applied, every sql step's statement on it is described by
 * the database (nothing runs; ./query-check.ts). A refused one stops the start (or the reload: the
 * previous manifest keeps being served), with its diagnostic; otherwise the described columns type
 * the OpenAPI document the server serves.
 */
import { renderDiagnostics } from '../diag/index.js';
import { isSqlKind, type SqlKind } from '../model/index.js';
import type { SqlColumns } from '../openapi/index.js';
import type { Booted } from './boot.js';
import { checkQueries, notChecked } from './query-check.js';

/** The start refused: its message is the rendered diagnostics. */
export class QueriesRefused extends Error {
  override readonly name = 'QueriesRefused';
}

/** Whether any connection of the manifest asks for the boot check. */
export function checksQueries(booted: Booted): boolean {
  return [...booted.model.connections.values()].some((c) => isSqlKind(c.kind) && c.checkQueries === true);
}

/** The described columns, or rejects with QueriesRefused; the connections must be open. */
export async function bootQueryCheck(booted: Booted): Promise<SqlColumns> {
  const { model, connectors } = booted;
  const checking = [...model.connections.values()].filter((c) => isSqlKind(c.kind) && c.checkQueries === true);
  const label = (key: string): string => `connection "${model.connections.get(key)?.name ?? key}"`;
  const checked = await checkQueries(
    model,
    checking.map((c) => `${c.kind}.${c.name}`),
    async (connection, statements) => {
      try {
        return await connectors.handle(connection.kind as SqlKind, connection.name).describe(statements);
      } catch (error) {
        return notChecked(connection, `connection "${connection.name}"`, error);
      }
    },
    label,
  );
  const errors = checked.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    throw new QueriesRefused(
      `check_queries: the database refuses ${errors.length === 1 ? 'a query' : `${errors.length} queries`} of the manifest\n${renderDiagnostics(errors, model.sources)}`,
    );
  }
  return checked.columns;
}
