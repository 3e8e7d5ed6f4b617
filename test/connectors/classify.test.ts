/**
 * classifyConnectorError, the graph's classifier hook: driver failures to the categories src/http
 * turns into statuses (503 unavailable, 504 timeout), everything else left to `catch` blocks or 500.
 * The errors here are shaped as pg and Node make them; the live paths are tested against the
 * engines in the other files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyConnectorError, ConnectorError } from '../../src/connectors/index.js';

function pgError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'ERROR' });
}

function errno(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, errno: -111, syscall: 'connect' });
}

test('outages are dependency-unavailable', () => {
  for (const cause of [
    errno('ECONNREFUSED'),
    errno('ECONNRESET'),
    errno('ENOTFOUND'),
    new AggregateError([errno('ECONNREFUSED'), errno('ECONNREFUSED')], ''),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    new Error('Client has encountered a connection error and is not queryable'),
    pgError('08006', 'connection failure'),
    pgError('57P01', 'terminating connection due to administrator command'),
    pgError('57P03', 'the database system is starting up'),
    pgError('53300', 'sorry, too many clients already'),
  ]) {
    assert.equal(classifyConnectorError(cause), 'dependency-unavailable', cause.message);
  }
});

test('statement_timeout is a timeout; a cancel by someone else is not', () => {
  assert.equal(classifyConnectorError(pgError('57014', 'canceling statement due to statement timeout')), 'timeout');
  assert.equal(classifyConnectorError(pgError('57014', 'canceling statement due to user request')), undefined);
});

test('SQL errors have no category (their SQLSTATE is for catch blocks); so has anything unknown', () => {
  assert.equal(classifyConnectorError(pgError('23505', 'duplicate key value violates unique constraint "users_email_key"')), undefined);
  assert.equal(classifyConnectorError(pgError('42601', 'syntax error at or near "SELEC"')), undefined);
  assert.equal(classifyConnectorError(new TypeError('x is not a function')), undefined);
  assert.equal(classifyConnectorError('a string'), undefined);
});

test('a ConnectorError speaks for itself, also when wrapped in another error', () => {
  const timeout = new ConnectorError('connection "postgres" "main": query timed out after 5 ms', { connection: 'postgres.main', category: 'timeout' });
  assert.equal(classifyConnectorError(timeout), 'timeout');
  assert.equal(classifyConnectorError(new Error('step "q" (sql) failed', { cause: timeout })), 'timeout');
  const sql = new ConnectorError('connection "postgres" "main": duplicate key', { connection: 'postgres.main', code: '23505' });
  assert.equal(classifyConnectorError(sql), undefined);
});
