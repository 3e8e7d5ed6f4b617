/** `svc openapi`: the OpenAPI compiler arrives in a later release; until then it says so (exit 2). */
import type { CliIO } from './io.js';
import { EXIT_USAGE } from './io.js';

export async function openapiCommand(_args: string[], io: CliIO): Promise<number> {
  io.stderr.write('svc openapi: not implemented yet\n');
  return EXIT_USAGE;
}
