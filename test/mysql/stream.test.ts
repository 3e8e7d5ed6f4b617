/**
 * A sql step with `stream = true` on MariaDB, read by a `stream` step over real sockets: the shared
 * suite of test/sql-suite (a client that hangs up gets its statement killed on the server; one that
 * stops reading stops the server, watched through a NOCACHE sequence advanced per row).
 */
import { after } from 'node:test';
import { streamSuite } from '../sql-suite/stream.js';
import { MARIADB } from './engine.js';
import { dropDatabases } from './helpers.js';

after(dropDatabases);

streamSuite(MARIADB);
