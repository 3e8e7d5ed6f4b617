/**
 * What a `connection "mysql"` has of its own (docs/mysql.md): its URL's shape, checked at boot so a
 * typo fails there and not at the first request, and its `tls { ca_file, cert_file, key_file,
 * reject_unauthorized }` block. The files are resolved against the declaring file's directory and read
 * when the connection opens (a certificate renewed on disk is read by the next start).
 */
import { resolve } from 'node:path';
import type { Block } from '../hcl/index.js';
import type { Range } from '../diag/index.js';
import { decodeBody, type BodySchema } from './body.js';
import type { DecodeScope } from './scope.js';
import type { ConnectionTlsModel } from './types.js';
import { readBool, readString } from './values.js';

const TLS_BODY: BodySchema = { attributes: { ca_file: {}, cert_file: {}, key_file: {}, reject_unauthorized: {} }, blocks: {} };

/**
 * `mysql://user:password@host:port/database` (or `mariadb://`): a host, an optional port, at most one
 * path segment. Query parameters are refused rather than ignored: TLS has its block, and an option
 * silently dropped would be worse than a boot error.
 */
export function checkMysqlUrl(url: string, range: Range, s: DecodeScope): void {
  const problem = mysqlUrlProblem(url);
  if (problem !== undefined) s.error('Invalid connection URL', range, { detail: problem });
}

function mysqlUrlProblem(url: string): string | undefined {
  const shown = url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${shown}" is not a URL; a mysql URL is mysql://user:password@host:3306/database.`;
  }
  if (parsed.hostname === '') return `"${shown}" names no host; a mysql URL is mysql://user:password@host:3306/database.`;
  if (parsed.search !== '') {
    return `"${shown}" has query parameters, which a mysql connection does not take: TLS is set with a tls { ca_file, cert_file, key_file, reject_unauthorized } block.`;
  }
  if (parsed.pathname.slice(1).includes('/')) return `"${shown}" has more than one path segment; the path is the database's name.`;
  return undefined;
}

export function decodeConnectionTls(block: Block, baseDir: string, scope: DecodeScope): ConnectionTlsModel {
  const s = scope.enter(block);
  const { attrs } = decodeBody(block.body, TLS_BODY, s, block);
  const file = (name: string): string | undefined => {
    const value = readString(attrs.get(name), s);
    return value === undefined ? undefined : resolve(baseDir, value);
  };
  const caFile = file('ca_file');
  const certFile = file('cert_file');
  const keyFile = file('key_file');
  const rejectUnauthorized = readBool(attrs.get('reject_unauthorized'), s);
  // A client certificate is its chain and its key: one without the other cannot authenticate.
  for (const [has, lacks] of [
    ['cert_file', 'key_file'],
    ['key_file', 'cert_file'],
  ] as const) {
    if (attrs.has(has) && !attrs.has(lacks)) {
      s.error('Missing required argument', attrs.get(has)!.nameRange, {
        detail: `The argument "${lacks}" is required with "${has}": a client certificate is a certificate and its private key.`,
      });
    }
  }
  return {
    ...(caFile !== undefined ? { caFile } : {}),
    ...(certFile !== undefined ? { certFile } : {}),
    ...(keyFile !== undefined ? { keyFile } : {}),
    ...(rejectUnauthorized !== undefined ? { rejectUnauthorized } : {}),
  };
}
