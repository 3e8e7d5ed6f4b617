/**
 * The internals of Node.js, V8, RxJS and undici that svc relies on, each checked directly (issue 34).
 * Every one is described in a file beside its use (listed in docs/performance.md "Internals svc
 * relies on"), kept because the public way costs more than the benchmarks' noise. `npm test` runs
 * this file under every supported Node.js line (scripts/node-lines.sh): a line or a dependency
 * release that changes one fails here, with a message naming the dependency, the version found and
 * what changed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, get } from 'node:http';
import { createRequire } from 'node:module';
import { connect, createServer as createNetServer, type AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { RXJS_INTERNAL_MODULES } from '../../graph/internals.js';
import { COMMAND_V8_FLAGS, COMPACT_FLAGS, FLUSH_CODE_FLAGS } from '../../src/cli/internals.js';
import { borrowGc } from '../../src/heap/index.js';
import { EXPOSE_GC_FLAG } from '../../src/heap/internals.js';
import { UNDICI_CORE_MODULES } from '../../src/connectors/http/undici-core.js';
import { TRANSFER_FLAG, TRANSFER_FLAG_V8_MAJOR } from '../../src/stream/internals.js';
import { ROOT } from '../paths.js';

const require = createRequire(import.meta.url);
const versionOf = (name: string): string => (require(`${name}/package.json`) as { version: string }).version;
const NODE = `Node.js ${process.version} (V8 ${process.versions.v8})`;

describe(`Node.js sockets: _write and _writev (src/io/internals.ts), ${NODE}`, () => {
  let server: ReturnType<typeof createNetServer>;
  const received: Buffer[] = [];
  before(async () => {
    server = createNetServer((socket) => socket.on('data', (chunk: Buffer) => received.push(chunk)));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });
  after(() => server.close());

  it('net.Socket.prototype has its own _write and _writev', () => {
    for (const name of ['_write', '_writev'] as const) {
      assert.equal(typeof Socket.prototype[name], 'function', `${NODE}: net.Socket.prototype.${name} is no longer a function`);
    }
  });

  it("Writable calls a socket's own _write, and its own _writev for writes queued behind one in progress", async () => {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    await once(socket, 'connect');
    const calls: string[] = [];
    let release: (() => void) | undefined;
    socket._write = (data, encoding, callback) => {
      calls.push('_write');
      // Held, as TurnEndWrites holds it: the writes after it queue in the stream.
      release = () => Socket.prototype._write.call(socket, data, encoding, callback);
    };
    socket._writev = (chunks, callback) => {
      calls.push(`_writev:${chunks.length}`);
      Socket.prototype._writev!.call(socket, chunks, callback);
    };
    socket.write('a');
    socket.write('b');
    const written = new Promise<void>((resolve) => socket.write('c', () => resolve()));
    assert.deepEqual(calls, ['_write'], `${NODE}: a socket's own _write is not what Writable calls`);
    release!();
    await written;
    assert.deepEqual(calls, ['_write', '_writev:2'], `${NODE}: the writes queued behind a write in progress no longer reach the socket's own _writev`);
    socket.end();
    await once(socket, 'close');
    assert.equal(Buffer.concat(received).toString(), 'abc', `${NODE}: the bytes given to the prototype's _write/_writev did not arrive in order`);
  });

  it("Node's HTTP server writes its responses through the connection's _write/_writev", async () => {
    let seen = 0;
    const http = createServer((_request, response) => response.end('ok'));
    http.on('connection', (socket: Socket) => {
      socket._write = function (data, encoding, callback) {
        seen++;
        Socket.prototype._write.call(this, data, encoding, callback);
      };
      socket._writev = function (chunks, callback) {
        seen++;
        Socket.prototype._writev!.call(this, chunks, callback);
      };
    });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    try {
      const body = await new Promise<string>((resolve, reject) => {
        get({ port: (http.address() as AddressInfo).port, host: '127.0.0.1', agent: false }, (response) => {
          let text = '';
          response
            .setEncoding('utf8')
            .on('data', (chunk: string) => (text += chunk))
            .on('end', () => resolve(text));
        }).on('error', reject);
      });
      assert.equal(body, 'ok');
      assert.ok(seen > 0, `${NODE}: node:http wrote a response without calling the connection's _write or _writev`);
    } finally {
      http.close();
    }
  });
});

describe(`Node.js HTTP: a connection's _httpMessage (src/http/chunk-writes.ts), ${NODE}`, () => {
  it('is the response being written, from its head until it has finished, then no longer it', async () => {
    const seen: unknown[] = [];
    const http = createServer((_request, response) => {
      const socket = response.socket as Socket & { _httpMessage?: unknown };
      response.flushHeaders();
      seen.push(socket._httpMessage === response);
      response.end('ok', () => setImmediate(() => seen.push(socket._httpMessage === response)));
    });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    try {
      await new Promise<void>((resolve, reject) => {
        get({ port: (http.address() as AddressInfo).port, host: '127.0.0.1', agent: false }, (response) => response.resume().on('end', resolve)).on(
          'error',
          reject,
        );
      });
      while (seen.length < 2) await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(seen, [true, false], `${NODE}: a connection's _httpMessage no longer names the response it writes (seen: ${seen})`);
    } finally {
      http.close();
    }
  });
});

describe(`rxjs ${versionOf('rxjs')}: rxjs/internal/... (graph/internals.ts)`, () => {
  const rxjs = require('rxjs') as Record<string, unknown>;
  const found = `rxjs ${versionOf('rxjs')}`;

  for (const [path, names] of Object.entries(RXJS_INTERNAL_MODULES)) {
    it(`${path} resolves${names.length > 0 ? ` and exports the index's own ${names.join(', ')}` : ''}`, () => {
      let module: Record<string, unknown>;
      try {
        module = require(path) as Record<string, unknown>;
      } catch (error) {
        assert.fail(`${found}: ${path} no longer resolves (${(error as Error).message.split('\n')[0]})`);
      }
      for (const name of names) {
        assert.ok(name in module, `${found}: ${path} no longer exports ${name}`);
        assert.equal(module[name], rxjs[name], `${found}: ${path}'s ${name} is not the one the rxjs index exports`);
      }
      // The types are imported from the same path (tsc resolves it through the exports map).
      assert.ok(require.resolve(path).endsWith('.js'));
    });
  }

  it('the sources import no rxjs/internal module but those listed in graph/internals.ts', () => {
    const imported = new Set<string>();
    const visit = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) visit(path);
        else if (entry.name.endsWith('.ts'))
          for (const match of readFileSync(path, 'utf8').matchAll(/from '(rxjs\/internal\/[^']+)'/g)) imported.add(match[1]!);
      }
    };
    visit(join(ROOT, 'graph'));
    visit(join(ROOT, 'src'));
    const unlisted = [...imported].filter((path) => !(path in RXJS_INTERNAL_MODULES));
    assert.deepEqual(unlisted, [], 'every rxjs/internal import is listed (and so guarded) in graph/internals.ts');
  });
});

describe(`undici ${versionOf('undici')}: undici/lib/... (src/connectors/http/undici-core.ts)`, () => {
  const found = `undici ${versionOf('undici')}`;
  const load = (path: string): unknown => {
    try {
      return require(path);
    } catch (error) {
      assert.fail(`${found}: ${path} no longer resolves (${(error as Error).message.split('\n')[0]})`);
    }
  };

  it("Pool and Agent are the index's own classes", () => {
    const undici = require('undici') as Record<string, unknown>;
    assert.equal(load(UNDICI_CORE_MODULES.Pool), undici.Pool, `${found}: ${UNDICI_CORE_MODULES.Pool} is not the index's Pool`);
    assert.equal(load(UNDICI_CORE_MODULES.Agent), undici.Agent, `${found}: ${UNDICI_CORE_MODULES.Agent} is not the index's Agent`);
  });

  it("api-request.js is what the index installs as Dispatcher.prototype.request, on dispatcher.js's Dispatcher", () => {
    const undici = require('undici') as { Dispatcher: { prototype: Record<string, unknown> } };
    assert.equal(load(UNDICI_CORE_MODULES.Dispatcher), undici.Dispatcher, `${found}: ${UNDICI_CORE_MODULES.Dispatcher} is not the index's Dispatcher`);
    assert.equal(
      undici.Dispatcher.prototype.request,
      load(UNDICI_CORE_MODULES.request),
      `${found}: Dispatcher.prototype.request is no longer ${UNDICI_CORE_MODULES.request}'s export`,
    );
  });
});

describe(`V8 flags set at run time, read by a new realm, ${NODE}`, () => {
  it('ArrayBuffer.prototype.transfer(0) detaches a buffer: built in, or on V8 11 from a realm made under the flag (src/stream/internals.ts)', () => {
    let transfer = (ArrayBuffer.prototype as { transfer?: unknown }).transfer;
    if (process.versions.v8.startsWith(TRANSFER_FLAG_V8_MAJOR)) {
      setFlagsFromString(TRANSFER_FLAG);
      transfer = runInNewContext('ArrayBuffer.prototype.transfer');
      assert.equal(typeof transfer, 'function', `${NODE}: a realm made under ${TRANSFER_FLAG} has no ArrayBuffer.prototype.transfer`);
    }
    assert.equal(typeof transfer, 'function', `${NODE}: ArrayBuffer.prototype.transfer is not built in (nor borrowed: V8 is not ${TRANSFER_FLAG_V8_MAJOR}x)`);
    const buffer = new ArrayBuffer(1 << 16);
    (transfer as (this: ArrayBuffer, length: number) => ArrayBuffer).call(buffer, 0);
    assert.equal(buffer.byteLength, 0, `${NODE}: transfer(0) left this realm's buffer attached`);
  });

  it('a realm made under --expose-gc has a gc function, and one made after --no-expose-gc has none (src/heap/internals.ts)', () => {
    let gc: unknown;
    try {
      setFlagsFromString(EXPOSE_GC_FLAG);
      gc = runInNewContext('gc');
    } finally {
      setFlagsFromString(`--no-${EXPOSE_GC_FLAG.slice(2)}`);
    }
    assert.equal(typeof gc, 'function', `${NODE}: a realm made under ${EXPOSE_GC_FLAG} has no global gc`);
    (gc as () => void)();
    assert.equal(runInNewContext('typeof gc'), 'undefined', `${NODE}: a realm made after --no-expose-gc still has gc`);
  });

  it("gc's options start V8's incremental major collection, which then finishes by itself (src/heap/internals.ts)", {
    skip: Number(process.versions.v8.split('.')[0]) < 12 ? 'V8 11 reads any options object as a young-generation collection' : undefined,
  }, async () => {
    const gc = borrowGc();
    assert.equal(typeof gc, 'function', `${NODE}: no gc to borrow`);
    const majors: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors.push(entry.startTime);
    });
    observer.observe({ entryTypes: ['gc'] });
    try {
      const asked = performance.now();
      gc!({ type: 'major', execution: 'async' });
      // Incremental marking finishes in V8's own tasks: no allocation is needed for it to end.
      for (let waited = 0; waited < 5_000 && !majors.some((at) => at >= asked); waited += 10) await new Promise((done) => setTimeout(done, 10));
      assert.ok(
        majors.some((at) => at >= asked),
        `${NODE}: no major collection within 5 s of gc({ type: 'major', execution: 'async' })`,
      );
    } finally {
      observer.disconnect();
    }
  });

  it('V8 knows the flags the idle collection sets for its length (src/cli/internals.ts)', () => {
    // setFlagsFromString ignores a flag V8 does not know: the list of its options is the check.
    const known = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    for (const flag of [...FLUSH_CODE_FLAGS, ...COMPACT_FLAGS]) assert.match(known, new RegExp(`^\\s+${flag} \\(`, 'm'), `${NODE}: V8 has no ${flag}`);
  });

  it("bin/svc.js's first line gives node the V8 flags of src/cli/internals.ts, and this node accepts them", () => {
    const shebang = readFileSync(join(ROOT, 'bin/svc.js'), 'utf8').split('\n')[0]!;
    for (const flag of COMMAND_V8_FLAGS) assert.ok(shebang.split(' ').includes(flag), `bin/svc.js's first line gives ${flag}`);
    let output: string;
    try {
      output = execFileSync(process.execPath, [...COMMAND_V8_FLAGS, '-e', 'process.stdout.write("ran")'], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      assert.fail(`${NODE} refuses ${COMMAND_V8_FLAGS.join(' ')}: ${String((error as { stderr?: string }).stderr ?? error).trim()}`);
    }
    assert.equal(output, 'ran');
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    for (const flag of COMMAND_V8_FLAGS) {
      const name = flag.split('=')[0]!;
      assert.ok(options.includes(`${name} `) || options.includes(`${name}\n`), `${NODE}: V8 no longer lists ${name} in --v8-options`);
    }
  });
});
