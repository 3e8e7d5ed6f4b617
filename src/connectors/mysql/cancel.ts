/**
 * Stopping a statement on the server. Closing the client's socket is not enough: MySQL and MariaDB
 * notice a gone client only when they next write to it, so a long statement (a big sort, a lock
 * wait, SLEEP) would run on. `KILL QUERY <thread id>` ends the statement and keeps its thread; it is
 * sent on a connection of its own, opened for it and closed after, so it needs no pool slot (the
 * pool may be exhausted by the very statements being cancelled). Best effort: a thread that finished
 * meanwhile answers "unknown thread", which changes nothing.
 */
import type { MysqlConnection, MysqlResource } from './resource.js';

export function killQuery(resource: MysqlResource, connection: MysqlConnection): void {
  const threadId = connection.threadId;
  if (typeof threadId !== 'number') return;
  const killer = resource.connect(resource.killOptions);
  // A refused or failed kill connection is reported once, to the query's callback or here.
  killer.on('error', ignore);
  killer.query(`KILL QUERY ${threadId}`, () => killer.destroy());
}

function ignore(): void {}
