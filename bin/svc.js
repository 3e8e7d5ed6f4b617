#!/usr/bin/env node
// The `svc` command. The TypeScript sources are compiled to dist/ by `npm install` (the `prepare` script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  process.stderr.write('svc: dist/ is missing; run `npm install` (or `npm run build`) first\n');
  process.exit(1);
}
const { run } = await import(main.href);
process.exitCode = await run(process.argv.slice(2));
