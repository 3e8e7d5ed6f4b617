/**
 * A statement described by the server without running it: Parse, Describe (statement), Sync, and no
 * Bind or Execute, so nothing of it runs (an INSERT inserts nothing); unnamed, so nothing stays on
 * the connection. pg has no call for this: a `Submittable` sends the messages, and the
 * ParameterDescription, which pg does not route to the active query, is heard on the connection.
 */
import type pg from 'pg';
import type { StatementError } from '../sql-types.js';

/** One column of the statement's rows, from its RowDescription. */
export interface DescribedField {
  readonly name: string;
  /** pg_class oid of the table the column comes from, 0 for an expression. */
  readonly tableOid: number;
  /** The column's number in that table (pg_attribute.attnum), 0 for an expression. */
  readonly columnNumber: number;
  /** pg_type oid. */
  readonly typeOid: number;
}

export type Described =
  | {
      readonly ok: true;
      /** pg_type oids of $1, $2, ... as the server inferred them. */
      readonly parameterTypes: readonly number[];
      /** Undefined when the statement returns no rows (NoData: an INSERT without RETURNING). */
      readonly fields: readonly DescribedField[] | undefined;
    }
  | { readonly ok: false; readonly error: StatementError };

interface ProtocolConnection {
  parse(query: { text: string; name?: string; types?: number[] }): void;
  describe(message: { type: 'S' | 'P'; name?: string }): void;
  sync(): void;
  on(event: string, listener: (message: unknown) => void): void;
  off(event: string, listener: (message: unknown) => void): void;
}

interface FieldMessage {
  readonly name: string;
  readonly tableID: number;
  readonly columnID: number;
  readonly dataTypeID: number;
}

/** Describes `text` on `client` (any state but a failed transaction); never rejects for an SQL error. */
export function describeStatement(client: pg.ClientBase, text: string): Promise<Described> {
  return new Promise((resolve, reject) => {
    let parameterTypes: number[] = [];
    let fields: DescribedField[] | undefined;
    let failure: StatementError | undefined;
    let connection: ProtocolConnection | undefined;
    const onParameters = (message: unknown): void => {
      parameterTypes = [...(message as { dataTypeIDs: number[] }).dataTypeIDs];
    };
    const stopListening = (): void => connection?.off('parameterDescription', onParameters);
    const submittable = {
      submit(conn: ProtocolConnection): void {
        connection = conn;
        conn.on('parameterDescription', onParameters);
        conn.parse({ text, name: '', types: [] });
        conn.describe({ type: 'S', name: '' });
        conn.sync();
      },
      handleRowDescription(message: { fields: readonly FieldMessage[] }): void {
        fields = message.fields.map((f) => ({ name: f.name, tableOid: f.tableID, columnNumber: f.columnID, typeOid: f.dataTypeID }));
      },
      handleError(error: Error): void {
        stopListening();
        // A socket failure has no SQLSTATE: the caller's problem, not the statement's.
        const e = error as Error & { code?: unknown; position?: unknown; detail?: unknown; hint?: unknown; severity?: unknown };
        if (e.severity === undefined) {
          reject(error);
          return;
        }
        failure = {
          message: e.message,
          ...(typeof e.code === 'string' ? { code: e.code } : {}),
          ...(typeof e.position === 'string' && /^\d+$/.test(e.position) ? { position: Number(e.position) } : {}),
          ...(typeof e.detail === 'string' ? { detail: e.detail } : {}),
          ...(typeof e.hint === 'string' ? { hint: e.hint } : {}),
        };
        resolve({ ok: false, error: failure });
      },
      handleReadyForQuery(): void {
        stopListening();
        if (failure === undefined) resolve({ ok: true, parameterTypes, fields });
      },
      // Never sent for Parse/Describe; present because the client may call them on its active query.
      handleDataRow(): void {},
      handleCommandComplete(): void {},
      handleEmptyQuery(): void {},
      handlePortalSuspended(): void {},
      handleCopyInResponse(): void {},
      handleCopyData(): void {},
    };
    // pg's typings know Submittable only as a type of `query`'s argument.
    (client as unknown as { query(s: unknown): void }).query(submittable);
  });
}
