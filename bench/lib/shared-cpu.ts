/**
 * An A/B of two running servers loaded at once, for deciding between two builds or settings, not for
 * the figures of record (those are bench/<name>/run.ts, one server at a time).
 *
 * Both servers must be pinned to the same CPU (`taskset -c 1 ...`); each gets its own load generator
 * (bench/lib/load.ts) on CPU 0, started together. The two share their CPU, so a slow phase of the VM
 * slows both alike, and the ratio of their request rates is the inverse ratio of their costs. On the
 * 2-vCPU VM of 2026-11-27 its rounds agreed within about 3 %, and two fresh processes of the same
 * build within about 2 % (bench/health README), where one server at a time scattered more.
 *
 * Usage (after `npm run build`, which compiles the load generator it runs):
 *   npm run bench:shared-cpu -- [--rounds 5] [--seconds 3] [--path /] [--method POST --body '<json>'] [--header 'name: value']...
 *     <name>=<url-origin>,<pid> <name>=<url-origin>,<pid>
 *   --h2: the servers speak HTTP/2 over TLS (https:// origins), loaded by bench/h2/load.ts
 * e.g. npm run bench:shared-cpu -- --path /api/v1/health new=http://127.0.0.1:18082,4242 old=http://127.0.0.1:18080,4243
 * Prints each round (req/s and CPU time per request of each server, from /proc) and the median ratio.
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { compiled, cpuMs, median } from './procs.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '3' },
    path: { type: 'string', default: '/' },
    method: { type: 'string' },
    body: { type: 'string' },
    header: { type: 'string', multiple: true, default: [] },
    // HTTP/2 over TLS with bench/h2's load generator (4 sessions x 16 streams; GET `--path` only).
    h2: { type: 'boolean', default: false },
  },
});

interface Target {
  readonly name: string;
  readonly origin: string;
  readonly pid: number;
}

const targets: Target[] = positionals.map((arg) => {
  const match = /^([^=]+)=([^,]+),(\d+)$/.exec(arg);
  if (!match) throw new Error(`expected <name>=<url-origin>,<pid>, got ${arg}`);
  return { name: match[1]!, origin: match[2]!, pid: Number(match[3]) };
});
if (targets.length !== 2) {
  process.stderr.write('usage: shared-cpu.js [--rounds N] [--seconds S] [--path P] <name>=<origin>,<pid> <name>=<origin>,<pid>\n');
  process.exit(2);
}

/** One load generator on CPU 0; answers its JSON summary. */
function load(target: Target): Promise<{ requests: number; rps: number }> {
  const extra = [
    ...(values.method ? ['--method', values.method, ...(values.body !== undefined ? ['--body', values.body] : [])] : []),
    ...values.header.flatMap((header) => ['--header', header]),
  ];
  const load = values.h2
    ? compiled('bench/h2/load', [target.origin, values.path, values.seconds, '4', '16'])
    : compiled('bench/lib/load', [`${target.origin}${values.path}`, '16', values.seconds, ...extra]);
  const child = spawn('taskset', ['-c', '0', process.execPath, ...load], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => {
      const result = JSON.parse(out.trim().split('\n').at(-1)!) as { requests: number; rps: number } | { completed: number };
      resolve('completed' in result ? { requests: result.completed, rps: result.completed / Number(values.seconds) } : result);
    });
  });
}

const [a, b] = targets as [Target, Target];
const ratios: number[] = [];
const cpu: Record<string, number[]> = { [a.name]: [], [b.name]: [] };
for (let round = 0; round < Number(values.rounds); round++) {
  const before = targets.map((t) => cpuMs(t.pid));
  const results = await Promise.all(targets.map(load));
  for (const [i, t] of targets.entries()) cpu[t.name]!.push(((cpuMs(t.pid) - before[i]!) / results[i]!.requests) * 1000);
  ratios.push(results[0]!.rps / results[1]!.rps);
  const line = targets.map((t, i) => `${t.name} ${Math.round(results[i]!.rps)} req/s ${cpu[t.name]!.at(-1)!.toFixed(2)} us/req`).join('  ');
  console.log(`round ${round + 1}: ${line}  ratio ${ratios.at(-1)!.toFixed(3)}`);
}
console.log(
  `median ratio ${a.name}/${b.name}: ${median(ratios).toFixed(3)}; CPU per request ${a.name} ${median(cpu[a.name]!).toFixed(2)} us, ${b.name} ${median(cpu[b.name]!).toFixed(2)} us`,
);
