/**
 * Statements described by MySQL/MariaDB without running them (`svc check --database`,
 * `check_queries = true`; docs/mysql.md "Checking queries"): each is prepared (COM_STMT_PREPARE:
 * the server parses it and resolves its tables and columns, and answers with its parameters and
 * its result's column definitions) and closed at once; it is never executed.
 *
 * - A refusal is the server's error (1064 syntax, 1146 no such table, 1054 unknown column...), its
 *   SQLSTATE as the code, located in the text from what the message names (../refusal-position.ts).
 * - Each column's schema comes from its definition (./column-types.ts), its nullability from the
 *   NOT_NULL flag, which the server clears for the inner side of an outer join and sets for
 *   expressions that cannot be null (`COUNT(*)`).
 */
import type mysql from 'mysql2';
import { continuationPosition, identifierPosition } from '../refusal-position.js';
import type { ColumnDescription, StatementError, StatementReport } from '../sql-types.js';
import { mysqlColumnSchema, type DescribedColumnInfo } from './column-types.js';

const NOT_NULL_FLAG = 1;

/** mysql2's prepare answer, as far as it is read here. */
interface Prepared {
  readonly columns?: readonly (DescribedColumnInfo & { readonly flags?: number })[];
  close(): void;
}

interface ServerError extends Error {
  readonly errno?: number;
  readonly sqlState?: string;
  readonly sqlMessage?: string;
  readonly fatal?: boolean;
}

/** Describes `statements` (`?` texts) on `connection`, one after the other; rejects only when the connection fails. */
export async function describeMysqlStatements(connection: mysql.Connection | mysql.PoolConnection, statements: readonly string[]): Promise<StatementReport[]> {
  const reports: StatementReport[] = [];
  for (const text of statements) reports.push(await describeOne(connection, text));
  return reports;
}

function describeOne(connection: mysql.Connection | mysql.PoolConnection, text: string): Promise<StatementReport> {
  return new Promise((resolve, reject) => {
    connection.prepare(text, (error, statement) => {
      if (error) {
        const e = error as ServerError;
        // A server's answer has a SQLSTATE; a lost connection does not, and is not the statement's fault.
        if (e.sqlState === undefined || e.fatal) reject(error);
        else resolve({ ok: false, error: refusal(text, e) });
        return;
      }
      const prepared = statement as unknown as Prepared;
      const columns = prepared.columns ?? [];
      prepared.close();
      resolve({ ok: true, columns: columns.length === 0 ? undefined : columns.map(describeColumn) });
    });
  });
}

function describeColumn(column: DescribedColumnInfo & { readonly flags?: number }): ColumnDescription {
  return { name: column.name, schema: mysqlColumnSchema(column), notNull: ((column.flags ?? 0) & NOT_NULL_FLAG) !== 0 };
}

/** The server's message, located from what it names; its number and name as the detail. */
function refusal(text: string, error: ServerError): StatementError {
  const message = error.sqlMessage ?? error.message;
  const position = positionOf(text, message);
  const code = (error as { code?: unknown }).code;
  return {
    message,
    ...(error.sqlState !== undefined ? { code: error.sqlState } : {}),
    ...(position !== undefined ? { position } : {}),
    ...(error.errno !== undefined ? { detail: `Server error ${error.errno}${typeof code === 'string' ? ` (${code})` : ''}.` } : {}),
  };
}

function positionOf(text: string, message: string): number | undefined {
  const near = /near '([\s\S]*)' at line (\d+)$/.exec(message);
  if (near) return continuationPosition(text, near[1]!, Number(near[2]));
  const named = /^(?:Unknown column|Table|Unknown table) '([^']+)'|^FUNCTION (\S+) does not exist/.exec(message);
  return named ? identifierPosition(text, (named[1] ?? named[2])!) : undefined;
}
