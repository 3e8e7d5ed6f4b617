/** Runs `svc` in-process with captured output. */
import { run } from '../../src/cli/main.js';

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function svc(argv: string[], env: Record<string, string | undefined> = {}): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env,
    cwd: process.cwd(),
  });
  return { code, stdout, stderr };
}
