#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=8 --liftoff-only
// The `svc` command. The TypeScript sources are compiled to dist/ by `npm install` (the `prepare` script).
//
// Run as a command (`npx svc`, a global install, `./bin/svc.js`), Node starts with three memory settings
// for a long-running server (docs/operations.md "Memory"), measured in bench/export, bench/users and bench/proxy:
// - `--max-semi-space-size=8`: V8's young generation at most 2 x 8 MiB instead of 2 x 16. A busy
//   server fills whatever it is allowed; 16 MiB less resident at peak, for about 3 % of the
//   throughput of the smallest requests (the health endpoint; docs/operations.md "Memory").
// - `MALLOC_ARENA_MAX=2`: two malloc arenas instead of one per thread that ever allocated (V8's
//   helper threads, libuv's pool), each of which keeps the pages it touched.
// - `--liftoff-only`: WebAssembly stays on V8's baseline compiler. undici's HTTP parser is one large
//   WebAssembly function; optimizing it, the first time an upstream keeps it busy, takes about 30 MB
//   for a moment (the peak of a streaming proxy). Proxies measured as fast; embedded PGlite's queries
//   about 9 % slower, its boot faster.
// `node bin/svc.js` runs without them, as Node's defaults.
//
// It runs dist/bundle/svc.js, the command bundled into a few files (scripts/bundle.ts: loading ~600
// modules of dist/src was about 45 % of a boot), when that is there and not older than dist/src (a
// `tsc` run since, or a build whose bundling failed, leaves it stale); otherwise dist/src as compiled.
// SVC_BUNDLE=0 runs dist/src (docs/development.md "The build").
//
// From Node.js 22.1, V8's compiled code is kept on disk between starts (`module.enableCompileCache`,
// in the OS's temporary directory unless NODE_COMPILE_CACHE names another; NODE_DISABLE_COMPILE_CACHE=1
// turns it off): about 60 ms less CPU to a first answer (bench/users README "A lighter start").
import { statSync } from 'node:fs';
import module from 'node:module';

module.enableCompileCache?.();

const main = new URL('../dist/src/cli/main.js', import.meta.url);
const bundle = new URL('../dist/bundle/svc.js', import.meta.url);
const compiled = statSync(main, { throwIfNoEntry: false });
if (compiled === undefined) {
  process.stderr.write('svc: dist/ is missing; run `npm install` (or `npm run build`) first\n');
  process.exit(1);
}
const bundled = process.env.SVC_BUNDLE === '0' ? undefined : statSync(bundle, { throwIfNoEntry: false });
const entry = bundled !== undefined && bundled.mtimeMs >= compiled.mtimeMs ? bundle : main;
const { run } = await import(entry.href);
process.exitCode = await run(process.argv.slice(2));
