/** `migrations = "<dir>"` on every postgres target: the shared suite of test/sql-suite. */
import { after } from 'node:test';
import { migrationSuite } from '../sql-suite/migrations.js';
import { ENGINES } from './engine.js';
import { closeTargets } from './helpers.js';

after(closeTargets);

for (const engine of ENGINES) migrationSuite(engine);
