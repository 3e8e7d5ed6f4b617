/**
 * `check_queries = true` on a postgres connection: at every boot and reload of `svc serve`, once the
 * connection is open and its migrations applied, every sql step's statement on it is described by
 * the database (nothing runs; ./query-check.ts). A refused one stops the start (or the reload: the
 * previous manifest keeps being served), with its diagnostic; otherwise the described columns type
 * the OpenAPI document the server serves.
 */
import { renderDiagnostics } from '../diag/index.js';
import type { SqlColumns } from '../openapi/index.js';
import type { Booted } from './boot.js';
import { checkQueries, notChecked } from './query-check.js';

/** The start refused: its message is the rendered diagnostics. */
export class QueriesRefused extends Error {
  override readonly name = 'QueriesRefused';
}

/** Whether any connection of the manifest asks for the boot check. */
export function checksQueries(booted: Booted): boolean {
  return [...booted.model.connections.values()].some((c) => c.kind === 'postgres' && c.checkQueries === true);
}

/** The described columns, or rejects with QueriesRefused; the connections must be open. */
export async function bootQueryCheck(booted: Booted): Promise<SqlColumns> {
  const { model, connectors } = booted;
  const names = [...model.connections.values()].filter((c) => c.kind === 'postgres' && c.checkQueries === true).map((c) => c.name);
  const label = (name: string): string => `connection "${name}"`;
  const checked = await checkQueries(
    model,
    names,
    async (connection, statements) => {
      try {
        return await connectors.handle('postgres', connection.name).describe(statements);
      } catch (error) {
        return notChecked(connection, label(connection.name), error);
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
