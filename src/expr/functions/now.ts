/** `now()`: the current time, RFC 3339 in UTC with milliseconds ("2026-01-02T03:04:05.678Z"). Impure. */
import { defineFunction } from './types.js';

export const now = defineFunction({ name: 'now', params: [], pure: false, impl: () => new Date().toISOString() });
