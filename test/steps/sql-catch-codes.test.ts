import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExitSignal } from '../../graph/index.js';
import { ConnectorError } from '../../src/connectors/index.js';
import type { CatchSpec } from '../../src/model/index.js';
import type { EndpointScope } from '../../src/steps/contract.js';
import { caughtExit } from '../../src/steps/sql/catch.js';

const range = { filename: 'api.hcl', start: { line: 1, column: 1, byte: 0 }, end: { line: 1, column: 1, byte: 0 } };
const scope = { steps: {}, ctx: {} } as unknown as EndpointScope;
const catchOf = (code: string, status: number): CatchSpec => ({ code, status, range });

/** A MySQL duplicate key as its connector reports it: SQLSTATE 23000, its number and name, and PostgreSQL's 23505. */
const duplicate = new ConnectorError('Duplicate entry', { connection: 'mysql.main', code: '23000', codes: ['1062', 'ER_DUP_ENTRY', '23505'] });

function statusOf(exit: unknown): number | undefined {
  assert.ok(exit === undefined || exit instanceof ExitSignal);
  return exit === undefined ? undefined : (exit.payload as { status: number }).status;
}

test("a catch matches the engine's SQLSTATE, its own error number or name, or the portable SQLSTATE", () => {
  for (const code of ['23000', '1062', 'ER_DUP_ENTRY', '23505']) assert.equal(statusOf(caughtExit([catchOf(code, 409)], duplicate, scope)), 409, code);
  assert.equal(statusOf(caughtExit([catchOf('23503', 409)], duplicate, scope)), undefined);
});

test('an error with engine codes and no SQLSTATE (SQLite) is caught by those codes, through a cause chain', () => {
  const busy = new ConnectorError('database is locked', { connection: 'sqlite.main', codes: ['SQLITE_BUSY'] });
  const wrapped = new Error('step failed', { cause: busy });
  assert.equal(statusOf(caughtExit([catchOf('SQLITE_BUSY', 503)], wrapped, scope)), 503);
  assert.equal(statusOf(caughtExit([catchOf('SQLITE_CONSTRAINT_UNIQUE', 409)], wrapped, scope)), undefined);
});
