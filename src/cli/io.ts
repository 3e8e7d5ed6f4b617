/**
 * What a command may touch of the outside world, so tests can run commands in-process and read what
 * they printed. `processIO()` is the real thing.
 */
export interface CliIO {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

let pipeGuard = false;

export function processIO(): CliIO {
  if (!pipeGuard) {
    pipeGuard = true;
    // `svc graph ... | head`: a reader that goes away is not an error worth a stack trace.
    for (const stream of [process.stdout, process.stderr]) {
      stream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE') throw error;
      });
    }
  }
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/** Exit codes: 0 success, 1 the manifest or the run failed, 2 the command was called wrongly. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
