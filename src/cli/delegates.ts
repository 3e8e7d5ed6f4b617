/**
 * Commands written in their own modules with their own IO shape (`check`, `starlark`), adapted to the
 * dispatcher's, and the one a later release brings (`openapi`).
 */
import type { CliIO } from './io.js';
import { EXIT_USAGE } from './io.js';

export async function openapiCommand(_args: string[], io: CliIO): Promise<number> {
  io.stderr.write('svc openapi: not implemented yet\n');
  return EXIT_USAGE;
}

export async function checkCommand(args: string[], io: CliIO): Promise<number> {
  const { checkCommand: check } = await import('./check.js');
  return check(args, { stdout: (s) => void io.stdout.write(s), stderr: (s) => void io.stderr.write(s) });
}

export async function starlarkCommand(args: string[], io: CliIO): Promise<number> {
  const { starlarkCommand: starlark } = await import('./starlark.js');
  return starlark(args, { stdout: (s) => void io.stdout.write(s), stderr: (s) => void io.stderr.write(s) });
}
