/**
 * svc embedded in a program: the manifest of ./manifest served with two step kinds of the
 * program's own (./steps.ts). Run it with `npx tsx examples/embedded/server.ts` (after `npm run
 * build`, which writes the package's declarations and JavaScript); PORT picks the port (0: any).
 * It prints the diagnostics and exits 1 when the manifest has an error, as `svc check` would.
 */
import { fileURLToPath } from 'node:url';
import { createServer, loadService } from 'svc';
import { geocode, waypoints } from './steps.js';

const dir = fileURLToPath(new URL('./manifest', import.meta.url));
const loaded = await loadService(dir, { steps: [geocode, waypoints] });
process.stderr.write(loaded.report);
if (!loaded.service) process.exit(1);

const server = await createServer(loaded.service, { log: { level: 'warn' } });
const { url } = await server.listen({ port: Number(process.env.PORT ?? 8080) });
process.stdout.write(`listening on ${url}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
