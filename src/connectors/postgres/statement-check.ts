/**
 * `svc check --database` and `check_queries = true` (docs/postgresql.md "Checking queries against the
 * database"): every statement described by the server (./describe.ts), inside one transaction that
 * is always rolled back, so the database is left as it was whatever runs in it:
 *
 * - the migrations the database has not recorded are applied first, in that transaction (the
 *   statements need the schema they create), then undone with it;
 * - each statement is described under a savepoint, rolled back to after an error, so one refused
 *   statement does not hide the others (a failed transaction refuses everything after);
 * - the columns' types and NOT NULL constraints are read from the catalogs in the same transaction.
 */
import type pg from 'pg';
import { describeCause } from '../errors.js';
import type { ColumnDescription, StatementReport } from '../sql-types.js';
import { describeStatement, type DescribedField } from './describe.js';
import { MIGRATIONS_TABLE, MigrationError, readMigrations } from './migrations.js';
import { transactionControl } from './transaction-control.js';

export type { ColumnDescription, StatementError, StatementReport } from '../sql-types.js';

const SAVEPOINT = 'svc_check';
const OUTER_JOIN = /\b(?:left|right|full)\s+(?:outer\s+)?join\b/i;

/**
 * Describes `statements` (positional `$n` texts) on `client`, after applying `migrations` (a
 * directory) when given. Rejects with a MigrationError when a migration fails, or with the driver's
 * error when the connection does; a statement the server refuses is a report, not a rejection.
 */
export async function describeStatements(client: pg.ClientBase, statements: readonly string[], migrations: string | undefined): Promise<StatementReport[]> {
  await client.query('BEGIN');
  try {
    if (migrations !== undefined) await applyPending(client, migrations);
    const described = [];
    for (const text of statements) {
      await client.query(`SAVEPOINT ${SAVEPOINT}`);
      const d = await describeStatement(client, text);
      if (!d.ok) await client.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
      described.push(d);
    }
    const fields = described.flatMap((d) => (d.ok ? (d.fields ?? []) : []));
    const notNull = await notNullColumns(client, fields);
    const labels = await enumLabels(client, fields);
    return described.map((d, i): StatementReport => {
      if (!d.ok) return d;
      const outer = OUTER_JOIN.test(statements[i]!);
      const columns = d.fields?.map((f): ColumnDescription => {
        const enumValues = labels.get(f.typeOid);
        return {
          name: f.name,
          typeOid: f.typeOid,
          ...(enumValues !== undefined ? { enumLabels: enumValues } : {}),
          notNull: !outer && notNull.has(`${f.tableOid}.${f.columnNumber}`),
        };
      });
      return { ok: true, parameterTypes: d.parameterTypes, columns };
    });
  } finally {
    // Always: nothing of the check may stay in the database.
    await client.query('ROLLBACK').catch(() => {});
  }
}

/**
 * The migration files the database has not recorded, applied in order in the open transaction
 * (never recorded: the transaction is rolled back). A database that never ran svc's migrations has
 * none recorded.
 */
async function applyPending(client: pg.ClientBase, dir: string): Promise<void> {
  const files = await readMigrations(dir);
  const table = await client.query<{ exists: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS exists`, [MIGRATIONS_TABLE]);
  const recorded = new Set<string>();
  if (table.rows[0]?.exists) {
    for (const row of (await client.query<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE}`)).rows) recorded.add(row.name);
  }
  for (const file of files) {
    if (recorded.has(file.name)) continue;
    // PostgreSQL's block comments nest: a COMMIT inside `/* /* */ */` is no statement.
    const control = transactionControl(file.sql, { nestedComments: true });
    if (control !== undefined) {
      throw new MigrationError(
        `migration ${file.path} holds "${control}": it would end the check's transaction and commit into the database, so it is not applied (a migration runs in a transaction of svc's and must not hold its own)`,
        file.path,
      );
    }
    try {
      await client.query(file.sql);
    } catch (error) {
      throw new MigrationError(`migration ${file.path} failed: ${describeCause(error)}`, file.path, error);
    }
  }
}

/** `<table oid>.<attnum>` of the fields' table columns declared NOT NULL. */
async function notNullColumns(client: pg.ClientBase, fields: readonly DescribedField[]): Promise<Set<string>> {
  const columns = fields.filter((f) => f.tableOid !== 0 && f.columnNumber > 0);
  if (columns.length === 0) return new Set();
  const result = await client.query<{ key: string }>(
    `SELECT a.attrelid::int8 || '.' || a.attnum AS key
       FROM pg_attribute a
       JOIN unnest($1::oid[], $2::int2[]) AS c(rel, num) ON a.attrelid = c.rel AND a.attnum = c.num
      WHERE a.attnotnull`,
    [columns.map((c) => c.tableOid), columns.map((c) => c.columnNumber)],
  );
  return new Set(result.rows.map((r) => r.key));
}

/** The labels of the enum types among the fields' types. */
async function enumLabels(client: pg.ClientBase, fields: readonly DescribedField[]): Promise<Map<number, string[]>> {
  const oids = [...new Set(fields.map((f) => f.typeOid))];
  if (oids.length === 0) return new Map();
  const result = await client.query<{ oid: number | string; labels: string[] }>(
    `SELECT enumtypid::int8 AS oid, array_agg(enumlabel::text ORDER BY enumsortorder) AS labels
       FROM pg_enum WHERE enumtypid = ANY($1::oid[]) GROUP BY enumtypid`,
    [oids],
  );
  return new Map(result.rows.map((r) => [Number(r.oid), r.labels]));
}
