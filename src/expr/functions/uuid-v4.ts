/** `uuid_v4()`: a random (version 4) UUID. Impure. */
import { randomUUID } from 'node:crypto';
import { defineFunction } from './types.js';

export const uuidV4 = defineFunction({ name: 'uuid_v4', params: [], pure: false, impl: () => randomUUID() });
