/**
 * src/http/chunk-writes.ts: a stream's text written to its HTTP/1.1 connection as whole chunks, past
 * Node's response, on a real node:http server and raw client sockets (the wire is what is checked).
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { chunkOf, directWrites } from '../../src/http/chunk-writes.js';
import type { DirectWrites } from '../../src/stream/index.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Sends `request` (raw HTTP) on a new connection; resolves with every byte until the server closes it or `until` matches. */
async function exchange(port: number, request: string, until?: RegExp): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  socket.setEncoding('latin1');
  let text = '';
  socket.write(request);
  return new Promise((resolve, reject) => {
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (until?.test(text)) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

function startHead(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
  res.flushHeaders();
}

describe('direct chunk writes', () => {
  let server: Server;
  let port: number;
  let handle: Handler = () => {};
  before(async () => {
    server = createServer((req, res) => handle(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  after(() => server.close());

  it('frames each text as one chunk after the head, and the response ends the body as usual', async () => {
    let afterEnd: boolean | undefined | 'unset' = 'unset';
    handle = (req, res) => {
      if (req.url === '/b') return void res.end('second');
      startHead(res);
      const direct = directWrites(res);
      assert.ok(direct, 'a chunked HTTP/1.1 response owning its connection writes directly');
      assert.equal(direct.write('héllo\n', 7), true);
      assert.equal(direct.write('world\n', 6), true);
      // After direct writes, not before: from Node.js 24 the response holds its writes to the next tick.
      res.write('through the response\n');
      res.end();
      afterEnd = direct.write('late', 4);
    };
    const wire = await exchange(port, 'GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const responses = wire.split('HTTP/1.1 200 OK\r\n').slice(1);
    assert.equal(responses.length, 2, 'the connection serves the next request: the body was ended properly');
    const body = responses[0]!.split('\r\n\r\n').slice(1).join('\r\n\r\n');
    // 'héllo\n' is 7 bytes of UTF-8 (shown here as latin1).
    assert.equal(body, `7\r\n${Buffer.from('héllo\n').toString('latin1')}\r\n6\r\nworld\n\r\n15\r\nthrough the response\n\r\n0\r\n\r\n`);
    assert.equal(afterEnd, undefined, 'once the response has ended, nothing goes to the connection');
  });

  it('is refused for an HTTP/1.0 client (no chunked coding) and for a pipelined response waiting its turn', async () => {
    const seen: Array<DirectWrites | undefined> = [];
    handle = (_req, res) => {
      startHead(res);
      seen.push(directWrites(res));
      res.end('x');
    };
    await exchange(port, 'GET / HTTP/1.0\r\n\r\n');
    assert.equal(seen.pop(), undefined);

    const pending: ServerResponse[] = [];
    const waiting: Array<DirectWrites | undefined> = [];
    handle = (_req, res) => {
      startHead(res);
      waiting.push(directWrites(res));
      pending.push(res);
      // The first response stays open until the second request has been handed over.
      if (pending.length === 2) for (const r of pending) r.end();
    };
    await exchange(port, 'GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.equal(waiting.length, 2);
    assert.ok(waiting[0] !== undefined, 'the response at the head of the connection writes directly');
    assert.equal(waiting[1], undefined, 'the pipelined one waits in the response, so it must write through it');
  });

  it('frames a text once for every connection it goes to', () => {
    const text = 'data: {"seq":1}\n\n';
    assert.equal(chunkOf(text), '11\r\ndata: {"seq":1}\n\n\r\n', 'a text seen once is framed as text');
    const shared = chunkOf(text);
    assert.ok(Buffer.isBuffer(shared), 'the same text again is a fan-out: its bytes are made once');
    assert.equal(shared.toString(), '11\r\ndata: {"seq":1}\n\n\r\n');
    assert.equal(chunkOf(text), shared);
    assert.equal(chunkOf('é'), '2\r\né\r\n', 'the size counts bytes, not characters');
  });
});
