/**
 * SQLite's result codes (https://sqlite.org/rescode.html) by number, as node:sqlite reports them
 * (`errcode`, the extended code: the primary code in its low byte), and what svc makes of each:
 * the names a `catch` block may use, PostgreSQL's SQLSTATE of a constraint's class (so one
 * manifest's catch blocks mean the same on every engine), and a connector category.
 */
import { ConnectorCategory, type ConnectorCategoryName } from '../errors.js';

const PRIMARY: Readonly<Record<number, string>> = {
  1: 'ERROR',
  2: 'INTERNAL',
  3: 'PERM',
  4: 'ABORT',
  5: 'BUSY',
  6: 'LOCKED',
  7: 'NOMEM',
  8: 'READONLY',
  9: 'INTERRUPT',
  10: 'IOERR',
  11: 'CORRUPT',
  12: 'NOTFOUND',
  13: 'FULL',
  14: 'CANTOPEN',
  15: 'PROTOCOL',
  16: 'EMPTY',
  17: 'SCHEMA',
  18: 'TOOBIG',
  19: 'CONSTRAINT',
  20: 'MISMATCH',
  21: 'MISUSE',
  22: 'NOLFS',
  23: 'AUTH',
  24: 'FORMAT',
  25: 'RANGE',
  26: 'NOTADB',
};

/** The extended codes a service meets; others are known by their primary name alone. */
const EXTENDED: Readonly<Record<number, string>> = {
  257: 'ERROR_MISSING_COLLSEQ',
  513: 'ERROR_RETRY',
  769: 'ERROR_SNAPSHOT',
  261: 'BUSY_RECOVERY',
  517: 'BUSY_SNAPSHOT',
  773: 'BUSY_TIMEOUT',
  262: 'LOCKED_SHAREDCACHE',
  518: 'LOCKED_VTAB',
  264: 'READONLY_RECOVERY',
  520: 'READONLY_CANTLOCK',
  776: 'READONLY_ROLLBACK',
  1032: 'READONLY_DBMOVED',
  1288: 'READONLY_CANTINIT',
  1544: 'READONLY_DIRECTORY',
  267: 'CORRUPT_VTAB',
  523: 'CORRUPT_SEQUENCE',
  779: 'CORRUPT_INDEX',
  270: 'CANTOPEN_NOTEMPDIR',
  526: 'CANTOPEN_ISDIR',
  782: 'CANTOPEN_FULLPATH',
  1038: 'CANTOPEN_CONVPATH',
  1550: 'CANTOPEN_SYMLINK',
  516: 'ABORT_ROLLBACK',
  275: 'CONSTRAINT_CHECK',
  531: 'CONSTRAINT_COMMITHOOK',
  787: 'CONSTRAINT_FOREIGNKEY',
  1043: 'CONSTRAINT_FUNCTION',
  1299: 'CONSTRAINT_NOTNULL',
  1555: 'CONSTRAINT_PRIMARYKEY',
  1811: 'CONSTRAINT_TRIGGER',
  2067: 'CONSTRAINT_UNIQUE',
  2323: 'CONSTRAINT_VTAB',
  2579: 'CONSTRAINT_ROWID',
  2835: 'CONSTRAINT_PINNED',
  3091: 'CONSTRAINT_DATATYPE',
};

/** PostgreSQL's SQLSTATE of the same constraint class (docs/sqlite.md, "catch"). */
const SQLSTATE: Readonly<Record<number, string>> = {
  2067: '23505', // unique
  1555: '23505', // primary key: a duplicate key, as PostgreSQL reports it
  787: '23503', // foreign key
  1299: '23502', // not null
  275: '23514', // check
};

/** Primary codes that mean the database cannot serve now, whatever the statement. */
const UNAVAILABLE = new Set([5, 6, 7, 10, 13, 14]);

/** Codes a value the request supplied raises: a STRICT column's type, a rowid that is no integer, a value over SQLite's size limit. */
const REFUSED_VALUE = new Set([3091, 20, 18]);

export const SQLITE_BUSY = 5;
export const SQLITE_LOCKED = 6;
export const SQLITE_READONLY = 8;

export interface ResultCode {
  /** The extended code. */
  readonly number: number;
  /** The primary code (the low byte). */
  readonly primary: number;
  /** `SQLITE_CONSTRAINT_UNIQUE`, or the primary name when the extended one is not listed. */
  readonly name: string;
  /** Every code a `catch` block matches: the extended name, the primary name, the SQLSTATE of a constraint. */
  readonly codes: readonly string[];
  /** The SQLSTATE of a constraint's class, else undefined. */
  readonly sqlstate: string | undefined;
  readonly category: ConnectorCategoryName | undefined;
}

export function resultCode(number: number): ResultCode {
  const primary = number & 0xff;
  const primaryName = `SQLITE_${PRIMARY[primary] ?? `ERROR_${number}`}`;
  const extended = EXTENDED[number];
  const name = extended === undefined ? primaryName : `SQLITE_${extended}`;
  const sqlstate = SQLSTATE[number];
  const codes = [name];
  if (name !== primaryName) codes.push(primaryName);
  if (sqlstate !== undefined) codes.push(sqlstate);
  const category = UNAVAILABLE.has(primary) ? ConnectorCategory.unavailable : REFUSED_VALUE.has(number) ? ConnectorCategory.invalidInput : undefined;
  return { number, primary, name, codes, sqlstate, category };
}

/** Whether a code means another connection holds a lock this statement needs: worth waiting for. */
export function isBusy(number: number): boolean {
  const primary = number & 0xff;
  return primary === SQLITE_BUSY || primary === SQLITE_LOCKED;
}
