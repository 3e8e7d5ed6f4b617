/**
 * Connectors: the only importers of database and network drivers (ARCHITECTURE.md). One handle per
 * declared connection, created without I/O; opened by `svc serve` before it listens, closed after
 * its requests drain. Step compilers bind to handles at boot; the graph's classifier maps their
 * failures to categories. Exported here is what other areas use; the rest of the folder's types
 * (QueryOptions, SqlQuery, PoolStats, ConnectorDefinition...) are one re-export away when needed.
 */
export { createConnectors, type ConnectorSet } from './set.js';
export type { ConnectorHandle, HandleOfKind } from './kinds.js';
export { classifyConnectorError } from './classify.js';
export { ConnectorCategory, ConnectorError, ConnectorOpenError } from './errors.js';
export { DEFAULT_RETRY } from './retry.js';
export { redactUrl } from './redact.js';
export type { ConnectorLogger, RetryPolicy } from './types.js';
export { describeOnDatabase, sqlKindOfUrl, uncheckableReason } from './describe-database.js';
export { checkSqliteDirectories } from './sqlite/directory-check.js';
export { MIGRATIONS_TABLE, type PostgresHandle, type PostgresListening, type PostgresSession } from './postgres/index.js';
export { sqlSegments } from './sql-segments.js';
export { PLACEHOLDERS, type PlaceholderStyle, type SqlCursor, type SqlHandle, type SqlResult, type SqlSession } from './sql-types.js';
export type { ColumnDescription, StatementError, StatementReport } from './sql-types.js';
// The embedded engine's template, made at build time (scripts/pglite-template.ts).
export { pgliteTemplateFile, writeTemplate } from './postgres/index.js';
export { DEFAULT_MAX_BODY_BYTES, type HeaderValue, type OutboundClient, type OutboundHttp, type OutboundResponse } from './http/index.js';
export type { UpstreamBody } from './http/index.js';
export type { RedisHandle, RedisStats, RedisSubscription, StreamEntry, StreamTail } from './redis/index.js';
export { scriptClient, type ScriptClient } from './redis/index.js';
/** Read by metrics at scrape time: a postgres handle's `stats()` (pg's pool counts), a redis handle's. */
export type { PoolStats } from './postgres/types.js';
