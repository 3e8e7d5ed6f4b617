/**
 * Where a mysql connection points: `mysql://user:password@host:port/database` (or `mariadb://`, the
 * same), as the server, credentials and database mysql2 is given. The manifest has checked the URL's
 * shape (src/manifest/connection-mysql.ts); this only takes it apart.
 */
import type { ConnectionModel } from '../../model/index.js';
import { redactUrl } from '../redact.js';

export interface MysqlTarget {
  readonly host: string;
  readonly port: number;
  readonly user: string | undefined;
  readonly password: string | undefined;
  readonly database: string | undefined;
}

/** MySQL's and MariaDB's port. */
const DEFAULT_PORT = 3306;

export function mysqlTargetOf(connection: ConnectionModel): MysqlTarget {
  return mysqlTargetOfUrl(connection.url);
}

export function mysqlTargetOfUrl(text: string): MysqlTarget {
  const url = new URL(text);
  const decoded = (text: string): string | undefined => (text === '' ? undefined : decodeURIComponent(text));
  return {
    // `[::1]` is how a URL writes an IPv6 address; the socket wants it bare.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? DEFAULT_PORT : Number(url.port),
    user: decoded(url.username),
    password: decoded(url.password),
    database: decoded(url.pathname.slice(1)),
  };
}

/** The URL for logs and errors, without its password. */
export function describeMysqlTarget(connection: ConnectionModel): string {
  return redactUrl(connection.url);
}
