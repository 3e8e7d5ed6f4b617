/** The transaction container on every postgres target: the shared suite of test/sql-suite. */
import { after } from 'node:test';
import { transactionSuite } from '../sql-suite/transaction.js';
import { ENGINES } from './engine.js';
import { closeTargets } from './helpers.js';

after(closeTargets);

for (const engine of ENGINES) transactionSuite(engine);
