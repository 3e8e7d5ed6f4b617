/**
 * The fair baseline of "tracing off" (`--baseline stripped`): this commit, built as usual into a
 * temporary directory, with every hook of tracing taken out of the compiled JavaScript before it is
 * bundled. What `off` runs of tracing per request is a read of `activeTracer()` where a span could
 * start (a statement, a redis command, an upstream call, a stream) and the handler's `traced` flag;
 * here the first is the constant `undefined` and the second `false`, so the same code minus exactly
 * that is measured. The server-level hooks (`genReqId`, the log wrapper) and the step spans are
 * chosen when the server is built and are absent from `off` already (src/http/tracing.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Each hook as compiled by tsc, and what it becomes without tracing. */
const HOOKS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bactiveTracer\(\)/g, 'undefined'],
  [/\boptions\.traced === true\b/g, 'false'],
];

/** HEAD of `root` built in `dir` without the hooks; its root. Throws when no hook was found. */
export function buildStripped(root: string, dir: string): string {
  process.stdout.write('building the baseline (this commit, tracing hooks taken out)...\n');
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive --format=tar HEAD | tar -x -C '${dir}'`], { cwd: root });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  // What the install puts in vendor/ and git does not hold (the documentation renderers' files).
  mkdirSync(join(dir, 'vendor'), { recursive: true });
  for (const name of existsSync(join(root, 'vendor')) ? readdirSync(join(root, 'vendor')) : []) {
    if (!existsSync(join(dir, 'vendor', name))) symlinkSync(join(root, 'vendor', name), join(dir, 'vendor', name));
  }
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: dir, stdio: 'pipe' });
  const compiled = join(dir, 'dist/src');
  const replaced = new Map<string, number>();
  for (const file of javascriptFiles(compiled)) {
    // src/tracing itself (the SDK's start, `activeTracer`'s definition) stays: nothing calls it now.
    if (relative(compiled, file).startsWith('tracing/')) continue;
    let text = readFileSync(file, 'utf8');
    let count = 0;
    for (const [hook, constant] of HOOKS) {
      text = text.replace(hook, () => {
        count++;
        return constant;
      });
    }
    if (count > 0) {
      writeFileSync(file, text);
      replaced.set(relative(compiled, file), count);
    }
  }
  const hooks = [...replaced.values()].reduce((sum, n) => sum + n, 0);
  if (hooks === 0) throw new Error('stripped baseline: no tracing hook found in dist/src; update HOOKS');
  process.stdout.write(`  ${hooks} hooks taken out of ${replaced.size} files: ${[...replaced.keys()].join(', ')}\n`);
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/bundle.ts'], { cwd: dir, stdio: 'pipe' });
  if (!existsSync(join(dir, 'dist/bundle/svc.js'))) throw new Error('stripped baseline: the bundle was not made');
  return dir;
}

function javascriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => join(entry.parentPath, entry.name));
}
