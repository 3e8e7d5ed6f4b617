/**
 * Every statement a service's sql steps send, with the connection it goes to: what `svc check
 * --database` and `check_queries = true` describe on the database. A step inside a `transaction`
 * runs on the transaction's connection; `listen` steps send no statement of the manifest's.
 */
import { PLACEHOLDERS, type PlaceholderStyle } from '../../connectors/index.js';
import { isSqlKind, type ServiceModel, type SqlKind, type StepSpecBase } from '../../model/index.js';
import { toPlaceholders } from './parameters.js';
import type { SqlStepSpec } from './spec.js';

export interface SqlStatement {
  readonly step: SqlStepSpec;
  /** The name of the connection it runs on. */
  readonly connection: string;
  /** That connection's engine. */
  readonly kind: SqlKind;
  /** How the engine writes a parameter in `text`. */
  readonly placeholders: PlaceholderStyle;
  /** The text the engine parses: `@name` as `$n`, `?n` or `?`, as at run time (./node.ts). */
  readonly text: string;
}

export function sqlStatements(model: ServiceModel): SqlStatement[] {
  const out: SqlStatement[] = [];
  const visit = (steps: readonly StepSpecBase[]): void => {
    for (const step of steps) {
      if (step.kind === 'sql') {
        const sql = step as SqlStepSpec;
        const on = sql.connection ?? sql.transactionConnection;
        if (sql.listen !== undefined || on === undefined || !isSqlKind(on.kind)) continue;
        const placeholders = PLACEHOLDERS[on.kind];
        out.push({ step: sql, connection: on.name, kind: on.kind, placeholders, text: toPlaceholders(sql.query, sql.parameters, placeholders).text });
        continue;
      }
      // A transaction's steps carry its connection; a parallel's have their own.
      const nested = (step as { steps?: unknown }).steps;
      if (Array.isArray(nested)) visit(nested as StepSpecBase[]);
    }
  };
  for (const endpoint of model.endpoints) if (endpoint.kind === 'pipeline') visit(endpoint.steps);
  return out;
}
