/**
 * `migrations` on SQLite: the shared suite of test/sql-suite. Two processes booting on one database
 * file at once apply each file once: the second waits for the write lock (`BEGIN IMMEDIATE`), then
 * finds it recorded.
 */
import { after } from 'node:test';
import { cleanup } from '../connectors/helpers.js';
import { migrationSuite } from '../sql-suite/migrations.js';
import { SQLITE } from './engine.js';

after(cleanup);

migrationSuite(SQLITE);
