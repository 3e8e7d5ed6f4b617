/**
 * The in-thread alternative, measured against svc: a node:http server running the same scripts
 * (manifest/*.star, read from the working directory: the repository root) with the interpreter's own limits on the event loop, as the starlark step did
 * before issue 15: charged built-ins and clock checks inside their loops, but no worker threads.
 *
 * Usage: node dist/bench/starlark-loop/baseline.js <port>
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { callFunction, compileModule, fromJS, StarlarkError, toJS, type StarlarkModule } from '../../src/starlark/index.js';

const port = Number(process.argv[2]);
const limits = { timeoutMs: 1000, maxSteps: 1e12 };

function load(name: string): StarlarkModule {
  const file = join(process.cwd(), 'bench/starlark-loop/manifest', `${name}.star`);
  const { program, errors } = compileModule(readFileSync(file, 'utf8'), file);
  if (!program) throw new Error(errors.map((e) => e.message).join('\n'));
  return program.init(limits);
}
const scripts = new Map(['spin', 'busy', 'trivial'].map((name) => [`/${name}`, load(name)]));
let requests = 0;

createServer((req, res) => {
  const reply = (status: number, body: unknown): void => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  if (req.url === '/health') return reply(200, { status: 'ok' });
  const module = scripts.get(req.url ?? '');
  if (module === undefined) return reply(404, { title: 'Not Found' });
  const ctx = fromJS({ request: { method: req.method, path: {}, query: {}, headers: {}, body: null }, request_id: String(++requests), steps: {} });
  try {
    reply(200, toJS(callFunction(module, 'execute', [ctx], limits)));
  } catch (error) {
    reply(error instanceof StarlarkError && error.kind === 'timeout' ? 504 : 500, { title: String(error) });
  }
}).listen(port, '127.0.0.1');
