/**
 * svc embedded in a program: the manifest of ./manifest served with two step kinds of the
 * program's own (./steps.ts). Run it with `npx tsx examples/embedded/server.ts` (after `npm run
 * build`, which writes the package's declarations and JavaScript); PORT picks the port (0: any).
 * `server.ts check` checks the manifest as `svc check` would, with the program's step kinds (exit 1
 * on an error), and `server.ts graph` prints the endpoints' graphs as `svc graph` does.
 */
import { fileURLToPath } from 'node:url';
import { createServer, loadService } from 'svc';
import { geocode, waypoints } from './steps.js';

const dir = fileURLToPath(new URL('./manifest', import.meta.url));
const command = process.argv[2] ?? 'serve';
const loaded = await loadService(dir, { steps: [geocode, waypoints] });
process.stderr.write(loaded.report);
if (!loaded.service) process.exit(1);

if (command === 'check') {
  process.stdout.write(`${loaded.service.endpoints.length} endpoints, no error\n`);
} else if (command === 'graph') {
  process.stdout.write(loaded.service.graph());
} else {
  const server = await createServer(loaded.service, { log: { level: 'warn' } });
  const { url } = await server.listen({ port: Number(process.env.PORT ?? 8080) });
  process.stdout.write(`listening on ${url}\n`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void server.close().then(() => process.exit(0));
    });
  }
}
