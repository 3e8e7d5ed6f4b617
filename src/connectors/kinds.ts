/**
 * Every connector kind, listed once. Adding a kind is its folder with an `index.ts`
 * exporting one ConnectorDefinition, plus one entry here.
 */
import { mysqlConnector } from './mysql/index.js';
import { postgresConnector } from './postgres/index.js';
import { redisConnector } from './redis/index.js';
import { sqliteConnector } from './sqlite/index.js';

export const CONNECTOR_KINDS = [postgresConnector, sqliteConnector, mysqlConnector, redisConnector] as const;

/** The handle of any kind; narrow it on `kind`. */
export type ConnectorHandle = ReturnType<(typeof CONNECTOR_KINDS)[number]['handle']>;

/** The handle of one kind. */
export type HandleOfKind<K extends ConnectorHandle['kind']> = Extract<ConnectorHandle, { readonly kind: K }>;
