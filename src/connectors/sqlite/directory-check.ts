/**
 * `svc serve`'s check of its sqlite database files' directories, before any connection opens: a
 * directory that cannot be made (under /proc, through a regular file) or, for a file still to be
 * made, written to, is a manifest diagnostic at the connection's `url`, with the file, line and
 * column, not the connection's boot error. It makes the directories it checks, as opening would
 * (./directory.ts), and needs no driver: it runs on a Node.js without node:sqlite too. `svc check`
 * does not run it: the files are the serving machine's, not the manifest's.
 */
import type { Diagnostic } from '../../diag/index.js';
import type { ConnectionModel } from '../../model/index.js';
import { makeDatabaseDirectory } from './directory.js';
import { sqliteTargetOf } from './target.js';

export async function checkSqliteDirectories(connections: Iterable<ConnectionModel>): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const connection of connections) {
    if (connection.kind !== 'sqlite') continue;
    const target = sqliteTargetOf(connection);
    if (target.type !== 'file') continue;
    const why = await makeDatabaseDirectory(target.path);
    if (why === undefined) continue;
    out.push({
      severity: 'error',
      summary: 'SQLite database directory unusable',
      subject: connection.urlRange ?? connection.range,
      path: [`connection "sqlite" "${connection.name}"`],
      detail: `The database file is ${target.path}, but ${why}. Name a file in a directory svc may make and write to.`,
    });
  }
  return out;
}
