/**
 * Writes held to the end of the event loop's turn (src/io/turn-end-writes.ts): held while the turn
 * runs, out at its end in order, with Node's stream semantics (callbacks, backpressure, a socket
 * destroyed meanwhile) intact, and only on the sockets it was asked to hold. A queue is an object
 * its owner creates and hands to its sockets; two queues are two.
 */
import assert from 'node:assert/strict';
import { createServer as createHttpServer, request } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { test } from 'node:test';
import { TurnEndWrites } from '../../src/io/index.js';

/** A TCP server whose accepted sockets hold their writes, and `count` clients connected to it. */
async function pairs(count: number, writes = new TurnEndWrites()): Promise<{ server: Server; accepted: Socket[]; clients: Socket[]; close(): Promise<void> }> {
  const accepted: Socket[] = [];
  const server = createServer((socket) => {
    writes.hold(socket);
    accepted.push(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const clients: Socket[] = [];
  for (let i = 0; i < count; i++)
    clients.push(
      await new Promise<Socket>((resolve) => {
        const client = connect(port, '127.0.0.1', () => resolve(client));
      }),
    );
  while (accepted.length < count) await new Promise((r) => setTimeout(r, 5));
  return {
    server,
    accepted,
    clients,
    close: async () => {
      for (const socket of [...accepted, ...clients]) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function received(socket: Socket, bytes: number): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.length >= bytes) resolve(text);
    });
  });
}

test('writes of one turn are held until its end, then leave in order', async () => {
  const { accepted, clients, close } = await pairs(3);
  try {
    const answers = clients.map((client, i) => received(client, `answer ${i}: one two`.length));
    const completed: number[] = [];
    accepted.forEach((socket, i) => {
      socket.write(`answer ${i}: `, () => completed.push(i));
      socket.write('one ');
      socket.write('two');
    });
    // Not taken by the kernel yet: still the stream's, and no write has completed.
    for (const socket of accepted) assert.equal(socket.writableLength, 'answer 0: one two'.length);
    await new Promise((resolve) => process.nextTick(resolve));
    assert.deepEqual(completed, [], 'no write completes before the turn ends');
    // The holder's setImmediate was scheduled first, so it has run by the time this one does.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(completed, [0, 1, 2]);
    for (const socket of accepted) assert.equal(socket.writableLength, 0);
    assert.deepEqual(await Promise.all(answers), ['answer 0: one two', 'answer 1: one two', 'answer 2: one two']);
  } finally {
    await close();
  }
});

test('a socket destroyed before the turn ends fails its write; the others still leave', async () => {
  const { accepted, clients, close } = await pairs(2);
  try {
    const errors: unknown[] = [];
    accepted[0]!.on('error', () => {});
    accepted[0]!.write('lost', (error) => errors.push(error));
    const kept = received(clients[1]!, 4);
    accepted[1]!.write('kept');
    accepted[0]!.destroy();
    assert.equal(await kept, 'kept');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof Error, 'the held write of the destroyed socket failed');
  } finally {
    await close();
  }
});

test('backpressure: a held write over the high-water mark asks the writer to wait, and drain follows', async () => {
  const { accepted, clients, close } = await pairs(1);
  try {
    const socket = accepted[0]!;
    const big = Buffer.alloc(socket.writableHighWaterMark * 4, 0x61);
    const all = received(clients[0]!, big.length);
    assert.equal(socket.write(big), false, 'the writer is told to wait');
    await new Promise((resolve) => socket.once('drain', resolve));
    assert.equal((await all).length, big.length);
  } finally {
    await close();
  }
});

test('only the sockets it is given: a client socket of the same process writes at once', async () => {
  const { accepted, clients, close } = await pairs(1);
  try {
    const client = clients[0]!;
    client.write('at once');
    assert.equal(client.writableLength, 0, 'written through to the kernel within the call');
    assert.equal(Object.hasOwn(client, '_write'), false);
    assert.equal(Object.hasOwn(accepted[0]!, '_write'), true);
  } finally {
    await close();
  }
});

test('two queues hold their own sockets, each to the end of the turn', async () => {
  const first = await pairs(1);
  const second = await pairs(1);
  try {
    const answers = [received(first.clients[0]!, 5), received(second.clients[0]!, 6)];
    first.accepted[0]!.write('first');
    second.accepted[0]!.write('second');
    assert.equal(first.accepted[0]!.writableLength, 5);
    assert.equal(second.accepted[0]!.writableLength, 6);
    assert.deepEqual(await Promise.all(answers), ['first', 'second']);
    assert.equal(first.accepted[0]!.writableLength + second.accepted[0]!.writableLength, 0);
  } finally {
    await first.close();
    await second.close();
  }
});

test('HTTP responses of one turn: each complete and correct, finish after the bytes left', async () => {
  const finishedAt: string[] = [];
  const server = createHttpServer((req, res) => {
    res.on('finish', () => finishedAt.push(req.url ?? ''));
    res.setHeader('content-type', 'text/plain');
    res.end(`hello ${req.url}`);
  });
  const writes = new TurnEndWrites();
  server.on('connection', (socket: Socket) => writes.hold(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const get = (path: string) =>
      new Promise<string>((resolve, reject) => {
        request({ port, host: '127.0.0.1', path }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve(`${res.statusCode} ${body}`));
        })
          .on('error', reject)
          .end();
      });
    const answers = await Promise.all(['/a', '/b', '/c', '/d'].map(get));
    assert.deepEqual(answers, ['200 hello /a', '200 hello /b', '200 hello /c', '200 hello /d']);
    assert.deepEqual([...finishedAt].sort(), ['/a', '/b', '/c', '/d']);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
