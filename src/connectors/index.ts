/**
 * Connectors: the only importers of database and network drivers (ARCHITECTURE.md). One handle per
 * declared connection, created without I/O; opened by `svc serve` before it listens, closed after
 * its requests drain. Step compilers bind to handles at boot; the graph's classifier maps their
 * failures to categories.
 */
export { ACQUIRE_TIMEOUT_MS, createConnectors, type ConnectionHealth, type ConnectorSet, type OpenAllOptions } from './set.js';
export { CONNECTOR_KINDS, type ConnectorHandle, type HandleOfKind } from './kinds.js';
export { classifyConnectorError } from './classify.js';
export { ConnectorCategory, ConnectorError, ConnectorOpenError, type ConnectorCategoryName, type ConnectorErrorOptions } from './errors.js';
export { DEFAULT_RETRY } from './retry.js';
export { redactUrl } from './redact.js';
export type { ConnectorDefinition, ConnectorLogger, ConnectorState, HandleBase, HandleIdentity, OpenContext, ResourceAccess, RetryPolicy } from './types.js';
export {
  MIGRATIONS_TABLE,
  MigrationError,
  type PoolStats,
  type PostgresHandle,
  type PostgresSession,
  type QueryOptions,
  type SqlField,
  type SqlQuery,
  type SqlResult,
} from './postgres/index.js';
