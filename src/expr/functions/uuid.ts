/** `uuid()`: a random (version 4) UUID. Impure. */
import { randomUUID } from 'node:crypto';
import { defineFunction } from './types.js';

export const uuid = defineFunction({ name: 'uuid', params: [], pure: false, impl: () => randomUUID() });
