/** The sql step and its catch blocks on every postgres target: the shared suites of test/sql-suite. */
import { after } from 'node:test';
import { catchSuite } from '../sql-suite/catch.js';
import { sqlSuite } from '../sql-suite/sql.js';
import { ENGINES } from './engine.js';
import { closeTargets } from './helpers.js';

after(closeTargets);

for (const engine of ENGINES) {
  sqlSuite(engine);
  catchSuite(engine);
}
