/**
 * `env(name[, default])`: the environment variable, else the default, else null.
 * Pure for folding: with a constant name (the usual case) it is read once at boot, like the rest of the
 * configuration; changing the environment of a running process has no effect.
 */
import { str } from './args.js';
import { defineFunction } from './types.js';

export const env = defineFunction({
  name: 'env',
  params: ['name'],
  optional: ['default'],
  impl: (args) => {
    const value = process.env[str(args, 0)];
    if (value !== undefined) return value;
    return args.length > 1 ? (args[1] ?? null) : null;
  },
});
