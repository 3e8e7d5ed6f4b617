/**
 * The connection states a shutdown reads (src/http/connection-states.ts), tracked without a listener
 * on each connection: closed connections are skipped and dropped as the states are read.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { test } from 'node:test';
import { trackConnections } from '../../src/http/connection-states.js';

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Sends one request on `socket` and waits for its whole (small) answer. */
function ask(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    socket.once('data', () => resolve());
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  });
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check(), 'the condition did not hold within 2 s');
}

function tracked() {
  const server = createServer((req, res) => {
    states.requestArrived(req.socket);
    res.end('ok');
  });
  const states = trackConnections(server);
  let accepted = 0;
  server.on('connection', () => accepted++);
  return { server, states, accepted: () => accepted };
}

test('idle, silent and writing connections, and closed ones forgotten', async () => {
  const { server, states, accepted } = tracked();
  const port = await listening(server);
  const spoke = await open(port);
  const mute = await open(port);
  try {
    await until(() => accepted() === 2);
    await ask(spoke);
    await until(() => states.idle().length === 1);
    assert.deepEqual(
      states.silent(0).map((s) => s.remotePort),
      [mute.localPort],
    );
    assert.deepEqual(states.writing(), []);
    assert.deepEqual(states.silent(60_000), [], 'not silent for a minute yet');

    spoke.destroy();
    mute.destroy();
    await until(() => states.idle().length === 0 && states.silent(0).length === 0);
  } finally {
    spoke.destroy();
    mute.destroy();
    server.close();
  }
});

test('many connections come and go: the states hold only the open ones', async () => {
  const { server, states, accepted } = tracked();
  const port = await listening(server);
  const kept = await open(port);
  try {
    await ask(kept);
    // More than the pruning threshold, half of them closed silent, half after a request.
    for (let i = 0; i < 150; i++) {
      const socket = await open(port);
      if (i % 2 === 0) await ask(socket);
      socket.destroy();
    }
    await until(() => accepted() === 151);
    await until(() => states.idle().length === 1 && states.silent(0).length === 0);
    assert.equal(states.idle()[0]!.remotePort, kept.localPort);
  } finally {
    kept.destroy();
    server.close();
  }
});

test('no listener is added to a connection', async () => {
  const plain = createServer((_req, res) => res.end('ok'));
  const { server } = tracked();
  const counts: number[] = [];
  for (const s of [plain, server]) {
    s.on('connection', (socket: Socket) => setImmediate(() => counts.push(socket.listenerCount('close'))));
    const socket = await open(await listening(s));
    await until(() => counts.length === (s === plain ? 1 : 2));
    socket.destroy();
    s.close();
  }
  assert.equal(counts[1], counts[0]);
});
