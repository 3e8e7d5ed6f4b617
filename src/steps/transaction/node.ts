/**
 * `transaction` as a graph container: `enter` checks a client out and sends BEGIN; the inner sql
 * steps run on it (the derived scope); `leave` commits after a body that finished and rolls back
 * otherwise, before the response, and gives the client back exactly once. On cancellation the client
 * is destroyed, not rolled back: a ROLLBACK would queue behind the running query, and the server
 * rolls an abandoned transaction back when the connection closes.
 */
import type { ContainerNodeDef } from '../../../graph/index.js';
import type { SqlSession } from '../../connectors/index.js';
import type { EndpointScope } from '../contract.js';
import type { NodeCompiler } from '../definition.js';
import { caughtExit } from '../sql/catch.js';
import type { TransactionStepSpec } from './spec.js';

/** Bound of BEGIN, COMMIT and ROLLBACK themselves (they are short; a stuck one frees its client). */
const CONTROL_TIMEOUT_MS = 10_000;

export const compileTransaction: NodeCompiler<TransactionStepSpec> = (spec, env) => {
  const body = env.compileSteps(spec.steps);
  if (!body) return undefined;
  const handle = env.sqlConnection(spec.connection);
  const inner = spec.steps.map((s) => s.name);
  const node: ContainerNodeDef<EndpointScope> = {
    type: 'container',
    kind: 'transaction',
    id: env.idOf(spec),
    name: spec.name,
    label: `BEGIN ... COMMIT on ${spec.connection.name}`,
    reads: env.readsOf(spec.catches.flatMap((c) => [c.body, c.headers])),
    meta: spec,
    body,
    wrap: {
      async enter(scope, ctx) {
        const session = await handle.checkout({ signal: ctx.signal });
        try {
          await session.query('BEGIN', { signal: ctx.signal, timeoutMs: CONTROL_TIMEOUT_MS });
        } catch (error) {
          session.release(true);
          throw error;
        }
        // The same `steps` object: inner outputs stay readable as steps.<inner> after the transaction.
        return { steps: scope.steps, ctx: scope.ctx, session };
      },
      async leave(scope, ending) {
        const session = scope.session!;
        if (ending.kind === 'done') {
          try {
            await finish(session, 'COMMIT');
          } catch (error) {
            // A constraint checked at COMMIT (DEFERRABLE INITIALLY DEFERRED) fails here, after the
            // server rolled the transaction back: the transaction's catch takes it like any other.
            const exit = caughtExit(spec.catches, error, scope);
            if (exit) return exit;
            throw error;
          }
          return Object.fromEntries(inner.map((name) => [name, scope.steps[name]]));
        }
        if (ending.kind === 'cancel' || (ending.kind === 'stream' && ending.end !== 'complete')) {
          session.release(true);
          return undefined;
        }
        if (ending.kind === 'stream') {
          await finish(session, 'COMMIT');
          return undefined;
        }
        await rollBack(session);
        return ending.kind === 'error' ? caughtExit(spec.catches, ending.error, scope) : undefined;
      },
    },
  };
  return node;
};

/**
 * COMMIT, then the client goes back to the pool; a failed COMMIT destroys it and fails the step. A
 * session whose connection failed after the last statement refuses the COMMIT with the connector's
 * error, which says why (an outage: a 503, not an anonymous 500).
 */
async function finish(session: SqlSession, statement: 'COMMIT'): Promise<void> {
  try {
    await session.query(statement, { timeoutMs: CONTROL_TIMEOUT_MS });
  } catch (error) {
    session.release(true);
    throw error;
  }
  session.release();
}

/**
 * ROLLBACK when the client is still usable; a client whose query was cancelled or whose connection
 * failed was already released by the connector (its transaction dies with the connection).
 */
async function rollBack(session: SqlSession): Promise<void> {
  if (session.released) return;
  try {
    await session.query('ROLLBACK', { timeoutMs: CONTROL_TIMEOUT_MS });
    session.release();
  } catch {
    session.release(true);
  }
}
