/**
 * `connection "<kind>" "<name>" { url | source, pool { max, idle_timeout }, statement_timeout, migrations,
 * prepared_statements, check_queries }` (postgres) or `{ url | source, pool, shared }` (redis)
 * (DECISIONS.md §1). The URL is evaluated at boot (it may come from `env()`) and its scheme checked
 * against the kind, so a redis URL on a postgres connection fails at boot, not on first use.
 */
import { dirname, resolve } from 'node:path';
import type { Block } from '../hcl/index.js';
import { didYouMean, type Range } from '../diag/index.js';
import { CONNECTION_KIND_NAMES, type ConnectionKind } from './connection-kind.js';
import type { ConnectionModel } from './types.js';
import { blocksOf, decodeBody, blockHeader, type BodySchema } from './body.js';
import type { DecodeScope } from './scope.js';
import { MAX_TIMER_MS, readBool, readDuration, readInt, readString } from './values.js';
import { sqliteUnavailableReason } from './sqlite-support.js';
import { checkMysqlUrl, decodeConnectionTls } from './connection-mysql.js';

const SCHEMES: Record<ConnectionKind, readonly string[]> = {
  postgres: ['postgres:', 'postgresql:', 'pglite:'],
  sqlite: ['sqlite:'],
  mysql: ['mysql:', 'mariadb:'],
  redis: ['redis:', 'rediss:', 'memory:'],
};

const CONNECTION_BODY: Record<ConnectionKind, BodySchema> = {
  postgres: { attributes: { url: {}, source: {}, statement_timeout: {}, migrations: {}, prepared_statements: {}, check_queries: {} }, blocks: { pool: {} } },
  sqlite: { attributes: { url: {}, source: {}, migrations: {}, busy_timeout: {}, check_queries: {} } },
  mysql: { attributes: { url: {}, source: {}, statement_timeout: {}, migrations: {}, check_queries: {} }, blocks: { pool: {}, tls: {} } },
  redis: { attributes: { url: {}, source: {}, shared: {} }, blocks: { pool: {} } },
};
const POOL_BODY: BodySchema = { attributes: { max: {}, idle_timeout: {} } };

/** Checks the kind label; returns it when known. */
export function connectionKindOf(block: Block, scope: DecodeScope): ConnectionKind | undefined {
  const kind = block.labels[0]!;
  if ((CONNECTION_KIND_NAMES as readonly string[]).includes(kind)) return kind as ConnectionKind;
  const suggestion = didYouMean(kind, CONNECTION_KIND_NAMES);
  scope.error('Unknown connection kind', block.labelRanges[0], {
    detail: `Connection kinds are ${CONNECTION_KIND_NAMES.slice(0, -1).join(', ')} and ${CONNECTION_KIND_NAMES.at(-1)}; got "${kind}".`,
    ...(suggestion ? { suggestion } : {}),
  });
  return undefined;
}

export function decodeConnection(block: Block, kind: ConnectionKind, scope: DecodeScope): ConnectionModel | undefined {
  const s = scope.enter(block);
  const name = block.labels[1]!;
  const d = decodeBody(block.body, CONNECTION_BODY[kind], s, block);
  const urlAttr = d.attrs.get('url') ?? d.attrs.get('source');
  if (d.attrs.has('url') && d.attrs.has('source')) {
    s.error('Conflicting arguments', d.attrs.get('source')!.nameRange, { detail: '`source` is an alias of `url`; set only one.' });
  }
  if (!urlAttr) {
    s.error('Missing required argument', blockHeader(block), { detail: 'The argument "url" is required, but no definition was found.' });
    return undefined;
  }
  const url = readString(urlAttr, s);
  if (url === undefined) return undefined;
  if (!SCHEMES[kind].some((scheme) => url.startsWith(scheme))) {
    s.error('Invalid connection URL', urlAttr.expr.range, {
      detail: `A ${kind} URL starts with ${SCHEMES[kind].join(', ')}; got "${redact(url)}".`,
    });
  }
  if (kind === 'sqlite') checkSqliteUrl(url, urlAttr.expr.range, s);
  if (kind === 'mysql') checkMysqlUrl(url, urlAttr.expr.range, s);
  const out: { -readonly [K in keyof ConnectionModel]: ConnectionModel[K] } = {
    kind,
    name,
    url,
    baseDir: dirname(block.range.filename),
    range: block.range,
    urlRange: urlAttr.expr.range,
  };
  const prepared = readBool(d.attrs.get('prepared_statements'), s);
  if (prepared !== undefined) out.preparedStatements = prepared;
  const checkQueries = readBool(d.attrs.get('check_queries'), s);
  if (checkQueries !== undefined) out.checkQueries = checkQueries;
  const shared = readBool(d.attrs.get('shared'), s);
  if (shared !== undefined) out.shared = shared;
  for (const p of blocksOf(d, 'pool')) {
    const ps = s.enter(p);
    const pd = decodeBody(p.body, POOL_BODY, ps, p);
    const max = readInt(pd.attrs.get('max'), ps, { min: 1 });
    // 0 disables the time-out, as in pg.
    const idle = readDuration(pd.attrs.get('idle_timeout'), ps, { min: 0, max: MAX_TIMER_MS });
    out.pool = { ...(max !== undefined ? { max } : {}), ...(idle !== undefined ? { idleTimeoutMs: idle } : {}) };
  }
  for (const t of blocksOf(d, 'tls')) out.tls = decodeConnectionTls(t, out.baseDir, s);
  const busy = readDuration(d.attrs.get('busy_timeout'), s, { min: 0, max: MAX_TIMER_MS });
  if (busy !== undefined) out.busyTimeoutMs = busy;
  const st = readDuration(d.attrs.get('statement_timeout'), s, { min: 0, max: MAX_TIMER_MS });
  if (st !== undefined) out.statementTimeoutMs = st;
  const migrations = readString(d.attrs.get('migrations'), s);
  if (migrations !== undefined) out.migrations = resolve(out.baseDir, migrations);
  return out;
}

/** A sqlite URL names a file or `:memory:`, and this Node.js must have node:sqlite (./sqlite-support.ts). */
function checkSqliteUrl(url: string, range: Range, s: DecodeScope): void {
  if (url === 'sqlite:') {
    s.error('Invalid connection URL', range, {
      detail: 'A sqlite URL names a file (sqlite:data/app.db) or an in-memory database (sqlite::memory:); got "sqlite:".',
    });
    return;
  }
  const reason = sqliteUnavailableReason();
  if (reason !== undefined) s.error('SQLite not available in this Node.js', range, { detail: reason });
}

/** Never echo a password from a URL into a diagnostic. */
function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
