/** `svc` from the TypeScript sources (as bin/svc.js runs it from dist/), for the benchmark's child process. */
import { run } from '../../src/cli/main.js';

process.exitCode = await run(process.argv.slice(2));
