/** The package's entry point (`import { loadService } from 'svc'`): the public API of src/api. */
export * from './api/index.js';
