/**
 * A sql step with `stream = true` read by a `stream` step over real sockets, on every postgres
 * target: the shared suite of test/sql-suite (on the server, a client that stops reading stops the
 * database, watched through a sequence).
 */
import { after } from 'node:test';
import { streamSuite } from '../sql-suite/stream.js';
import { ENGINES } from './engine.js';
import { closeTargets } from './helpers.js';

after(closeTargets);

for (const engine of ENGINES) streamSuite(engine);
