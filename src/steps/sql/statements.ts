/**
 * Every statement a service's sql steps send, with the connection it goes to: what `svc check
 * --database` and `check_queries = true` describe on the database. A step inside a `transaction`
 * runs on the transaction's connection; `listen` steps send no statement of the manifest's.
 */
import type { ServiceModel, StepSpecBase } from '../../model/index.js';
import { toPositional } from './parameters.js';
import type { SqlStepSpec } from './spec.js';

export interface SqlStatement {
  readonly step: SqlStepSpec;
  /** The name of the postgres connection it runs on. */
  readonly connection: string;
  /** The text the server parses: `@name` as `$n`, as at run time (./node.ts). */
  readonly text: string;
}

export function sqlStatements(model: ServiceModel): SqlStatement[] {
  const out: SqlStatement[] = [];
  const visit = (steps: readonly StepSpecBase[]): void => {
    for (const step of steps) {
      if (step.kind === 'sql') {
        const sql = step as SqlStepSpec;
        // Only PostgreSQL describes a statement without running it.
        const on = sql.connection ?? sql.transactionConnection;
        if (sql.listen === undefined && on?.kind === 'postgres') out.push({ step: sql, connection: on.name, text: toPositional(sql.query, sql.parameters) });
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
