/**
 * A listening sql step (`listen = <channel>`) as a graph step, and the boot check of where it cannot
 * listen: through a pooler in transaction mode (LISTEN belongs to a session; PgBouncer would hand
 * the server connection to others between statements and its notifications to nobody). A connection with `prepared_statements = false` is
 * the manifest saying such a pooler is in front (docs/replicas.md).
 */
import type { StepNodeDef } from '../../../graph/index.js';
import type { PostgresHandle } from '../../connectors/index.js';
import type { Expr } from '../../model/index.js';
import type { EndpointScope } from '../contract.js';
import type { CompileEnv } from '../definition.js';
import { listenChannel } from './listen.js';
import type { SqlStepSpec } from './spec.js';

export function compileListen(spec: SqlStepSpec, channel: Expr, handle: PostgresHandle | undefined, env: CompileEnv): StepNodeDef<EndpointScope> | undefined {
  // The decoder gives a listening step a connection, never a transaction.
  if (handle === undefined || spec.connection === undefined) throw new Error(`sql "${spec.name}" listens but has no connection`);
  const name = spec.connection.name;
  if (env.model.connections.get(`postgres.${name}`)?.preparedStatements === false) {
    env.error(
      spec,
      'LISTEN not supported by the connection',
      `connection.postgres.${name} says prepared_statements = false, the setting for a pooler in transaction mode (PgBouncer), through which LISTEN cannot work: it needs a session of its own. Declare a second connection straight to the server (or through a pooler in session mode) for the listening step.`,
      spec.connection.range,
    );
    return undefined;
  }
  const step = `sql "${spec.name}"`;
  return {
    type: 'step',
    kind: 'sql',
    id: env.idOf(spec),
    name: spec.name,
    label: `on ${name}, listening`,
    reads: env.readsOf([channel]),
    meta: spec,
    ...(spec.timeoutMs !== undefined ? { timeout: spec.timeoutMs } : {}),
    run: listenChannel(handle, channel, step),
  };
}
