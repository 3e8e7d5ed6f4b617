/**
 * Boot time and resident memory of examples/sqlite-crud against examples/shop on PGlite (the
 * lightest database example before it): each `svc serve` spawned cold with the `svc` command's launch
 * settings, timed to its first answer (a lookup by id), its resident memory read then and after
 * `--idle-seconds` without a request. A first start creates and migrates the database; a restart
 * reopens it. Medians of `--runs`.
 *
 *     npm run build && /work/main/.cache/node-lines/22/node --import tsx bench/sqlite/boot.ts [--runs 3 --idle-seconds 5]
 */
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cpuMs, freePort, median, memoryMiB, spawnNode, stopChild, SVC_LAUNCH, svcServe } from '../lib/procs.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, 'idle-seconds': { type: 'string', default: '5' } } });
const runs = Number(values.runs);
const idleSeconds = Number(values['idle-seconds']);

interface Case {
  readonly name: string;
  readonly manifest: string;
  readonly path: string;
  /** The database URL for one run's directory, and whether that run starts from an existing database. */
  url(dir: string): string;
  readonly restart: boolean;
}

const CASES: readonly Case[] = [
  {
    name: 'examples/sqlite-crud, first start (file created, migrated)',
    manifest: 'examples/sqlite-crud',
    path: '/tasks/1',
    url: (d) => `sqlite:${join(d, 'tasks.db')}`,
    restart: false,
  },
  {
    name: 'examples/sqlite-crud, restart (file reopened)',
    manifest: 'examples/sqlite-crud',
    path: '/tasks/1',
    url: (d) => `sqlite:${join(d, 'tasks.db')}`,
    restart: true,
  },
  {
    name: 'examples/sqlite-crud, sqlite::memory: (migrated on every start)',
    manifest: 'examples/sqlite-crud',
    path: '/tasks/1',
    url: () => 'sqlite::memory:',
    restart: false,
  },
  {
    name: 'examples/shop, PGlite first start (directory created, migrated)',
    manifest: 'examples/shop',
    path: '/api/v1/users/1',
    url: (d) => `pglite:${join(d, 'pg')}`,
    restart: false,
  },
  {
    name: 'examples/shop, PGlite restart (directory reopened)',
    manifest: 'examples/shop',
    path: '/api/v1/users/1',
    url: (d) => `pglite:${join(d, 'pg')}`,
    restart: true,
  },
  {
    name: 'examples/shop, pglite: in memory (migrated on every start)',
    manifest: 'examples/shop',
    path: '/api/v1/users/1',
    url: () => 'pglite:',
    restart: false,
  },
];

function get(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

async function once(c: Case, dir: string): Promise<{ ms: number; cpu: number; first: number; idle: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawnNode(svcServe(c.manifest, port), { env: { ...SVC_LAUNCH.env, DATABASE_URL: c.url(dir) } });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${c.name}: svc exited with ${child.exitCode}`);
      if ((await get(port, c.path)) === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const ms = performance.now() - started;
    const cpu = cpuMs(child.pid!);
    const first = memoryMiB(child.pid!).rss;
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    return { ms, cpu, first, idle: memoryMiB(child.pid!).rss };
  } finally {
    await stopChild(child);
  }
}

console.log(`Node.js ${process.versions.node}, ${runs} runs each, medians\n`);
console.log('| case | first answer, wall | CPU by then | resident at first answer | idle (' + idleSeconds + ' s) |');
console.log('|---|---|---|---|---|');
for (const c of CASES) {
  const results: Awaited<ReturnType<typeof once>>[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-sqlite-boot-'));
    try {
      if (c.restart) await once({ ...c, restart: false }, dir);
      results.push(await once(c, dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const m = (f: (r: (typeof results)[number]) => number): string => median(results.map(f)).toFixed(0);
  console.log(`| ${c.name} | ${m((r) => r.ms)} ms | ${m((r) => r.cpu)} ms | ${m((r) => r.first)} MiB | ${m((r) => r.idle)} MiB |`);
}
