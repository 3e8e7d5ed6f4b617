/**
 * jose, loaded when the first token is verified rather than at boot: a service without a JWT guard
 * never pays for it (about 7 MB of resident memory, measured with the other drivers; docs/operations.md
 * "Memory"). Loaded once; every later call gets the same module.
 */
type Jose = typeof import('jose');

let loading: Promise<Jose> | undefined;

export function jose(): Promise<Jose> {
  loading ??= import('jose');
  return loading;
}
