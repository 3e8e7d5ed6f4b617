/**
 * node:sqlite's failures -> connector errors (../errors.ts). The engine's errors carry `code`
 * "ERR_SQLITE_ERROR" and the extended result code in `errcode` (./result-codes.ts); node's own
 * argument errors (a value it cannot bind) carry an `ERR_INVALID_*` code and none.
 */
import { ConnectorError, describeCause, type ConnectorCategoryName } from '../errors.js';
import { resultCode, SQLITE_READONLY, type ResultCode } from './result-codes.js';

/** The extended result code of an engine error, else undefined. */
export function errcodeOf(cause: unknown): number | undefined {
  if (typeof cause !== 'object' || cause === null) return undefined;
  const { code, errcode } = cause as { code?: unknown; errcode?: unknown };
  return code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number' ? errcode : undefined;
}

/** Whether a failure is SQLite refusing to write on a read-only connection (before changing anything). */
export function readOnlyRefusal(cause: unknown): boolean {
  const errcode = errcodeOf(cause);
  return errcode !== undefined && (errcode & 0xff) === SQLITE_READONLY;
}

export function classifySqliteError(cause: unknown): ConnectorCategoryName | undefined {
  if (cause instanceof ConnectorError) return cause.category;
  const errcode = errcodeOf(cause);
  return errcode === undefined ? undefined : resultCode(errcode).category;
}

/** A driver failure as the ConnectorError a handle throws, naming the connection and carrying the codes a `catch` matches. */
export function toConnectorError(cause: unknown, key: string, label: string): ConnectorError {
  if (cause instanceof ConnectorError) return cause;
  const errcode = errcodeOf(cause);
  const code: ResultCode | undefined = errcode === undefined ? undefined : resultCode(errcode);
  return new ConnectorError(`${label}: ${describeCause(cause)}${code ? ` (${code.name})` : ''}`, {
    connection: key,
    category: code?.category,
    code: code?.sqlstate ?? code?.name,
    codes: code?.codes,
    cause,
  });
}
