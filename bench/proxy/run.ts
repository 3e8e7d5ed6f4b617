/**
 * Proxy throughput: `GET /api/v1/catalogue` served by svc through an http step (manifest/main.hcl)
 * against a hand-written Fastify + undici service (baseline.ts), both calling the same upstream
 * (upstream.ts: one 64 KiB JSON document, keep-alive), measured in the same run by the shared runner
 * (bench/lib/harness.ts: alternating rounds, child processes, compiled code).
 *
 *     npm run bench:proxy [-- --rounds 5 --seconds 3 --connections 16 --logging-rounds 5]
 *
 * Both parse the upstream JSON (the work of a proxy that may shape the answer); the baseline sends
 * the parsed document again as JSON, svc the upstream's text (the document is answered as it is:
 * src/json/source-text.ts). Main result: the median ratio svc/Fastify of req/s, goal >= 0.90 (issue
 * 10). Then, informational, against the baseline sending the upstream's text untouched without
 * parsing it (`--raw`).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { root, runBench } from '../lib/harness.js';

/** The upstream as its own process, so neither server pays for it in its event loop. */
async function startUpstream(): Promise<{ url: string; bytes: number; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/proxy/upstream.ts')], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const [port, bytes] = await new Promise<[number, number]>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const m = /listening (\d+) (\d+)/.exec(text);
      if (m) resolve([Number(m[1]), Number(m[2])]);
    });
    child.once('exit', (code) => reject(new Error(`the upstream exited (${code}) before listening`)));
  });
  return { url: `http://127.0.0.1:${port}/`, bytes, stop: () => child.kill('SIGTERM') };
}

const upstream = await startUpstream();
console.log(`upstream: ${upstream.url} (${upstream.bytes} bytes of JSON per answer)`);
try {
  const common = {
    manifest: 'bench/proxy/manifest',
    baseline: 'bench/proxy/baseline',
    env: { UPSTREAM_URL: upstream.url },
    main: {
      name: 'proxied (200)',
      path: '/api/v1/catalogue',
      status: 200,
      check(_server: unknown, _status: number, body: unknown) {
        const items = (body as { items?: unknown[] }).items;
        if (!Array.isArray(items) || items.length < 100) throw new Error('expected the upstream catalogue');
      },
    },
  } as const;
  const result = await runBench({ ...common, title: 'GET /api/v1/catalogue (proxy of a 64 KiB upstream JSON)', goal: 0.9 });
  console.log('\n### informational: against Fastify + undici sending the upstream text untouched, unparsed');
  const raw = await runBench({ ...common, title: 'GET /api/v1/catalogue (raw pass-through baseline)', baselineArgs: ['--raw'], loggingRounds: 0 });
  console.log(`\nproxy: median ratio svc/fastify ${result.main.ratio.toFixed(3)} (goal >= 0.90)`);
  if (result.logging) console.log(`proxy, both logging: median ratio svc/fastify ${result.logging.ratio.toFixed(3)}`);
  if (result.quiet) console.log(`proxy, access log off against Fastify logging nothing: ${result.quiet.ratio.toFixed(3)}`);
  console.log(`proxy, against the raw pass-through baseline: ${raw.main.ratio.toFixed(3)} (informational)`);
} finally {
  upstream.stop();
}
