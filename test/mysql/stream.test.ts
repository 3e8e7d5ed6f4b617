/**
 * A sql step with `stream = true` on MariaDB: the shared suites of test/sql-suite, read by a
 * `stream` step over real sockets (a client that hangs up gets its statement killed on the server;
 * one that stops reading stops the server, watched through a NOCACHE sequence advanced per row), and
 * at the step level (the connection held from the run to the end of the rows, destroyed when the
 * cursor is closed early; the wait for a connection bounded).
 */
import { after } from 'node:test';
import { streamStepSuite } from '../sql-suite/stream-step.js';
import { streamSuite } from '../sql-suite/stream.js';
import { MARIADB } from './engine.js';
import { dropDatabases } from './helpers.js';

after(dropDatabases);

streamSuite(MARIADB);
streamStepSuite(MARIADB);
