/**
 * A plain JSON answer of a route without hooks is written on Node's response by svc itself
 * (reply.ts), every other answer by Fastify's `send`: the bytes on the wire are the same either way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { listen } from '../../src/http/index.js';
import type { EndpointResult } from '../../src/steps/index.js';
import { endpoint, json, pendingOf, server } from './helpers.js';

/**
 * Sends `requests` on one connection, all at once, and answers what was received (dates blanked)
 * once it is as long as `expected`, or after 10 s.
 */
async function exchange(port: number, requests: string, expected: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  // Decoded as a stream: a character split between two chunks stays whole.
  socket.setEncoding('utf8');
  let text = '';
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(withoutDates(text));
    };
    const timer = setTimeout(done, 10_000);
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (withoutDates(text).length >= expected.length) done();
    });
    socket.write(requests);
  });
}

const get = (path: string, id: string, method = 'GET') => `${method} ${path} HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\n\r\n`;

/** The head Fastify's `send` writes for a JSON body, after the status line. */
const jsonHead = (id: string, length: number) =>
  `x-request-id: ${id}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${length}\r\n` +
  'Date: <date>\r\nConnection: keep-alive\r\nKeep-Alive: timeout=72\r\n\r\n';

const withoutDates = (text: string) => text.replace(/Date: [^\r]+/g, 'Date: <date>');

async function serving() {
  const body = { status: 'ok', n: 1, text: 'é' };
  const { app } = await server([
    endpoint('GET /direct', () => json(body)),
    endpoint('GET /created', () => json(body, 201)),
    endpoint('GET /later', () => pendingOf(new Promise<EndpointResult>((resolve) => setTimeout(() => resolve(json(body)), 10)))),
    // A header of the pipeline's own: written by Fastify's send.
    endpoint('GET /extra', () => json(body, 200, { 'x-extra': 'yes' })),
    endpoint('GET /empty', () => json(body, 204)),
  ]);
  const { port } = await listen(app, { host: '127.0.0.1', port: 0 });
  return { app, port, text: JSON.stringify(body) };
}

test('a JSON answer is written with the head and body Fastify would write, synchronous or not, any status', async () => {
  const { app, port, text } = await serving();
  try {
    const length = Buffer.byteLength(text);
    assert.notEqual(length, text.length, 'the body holds a multi-byte character');
    const expected =
      `HTTP/1.1 200 OK\r\n${jsonHead('a-1', length)}${text}` +
      `HTTP/1.1 200 OK\r\n${jsonHead('a-2', length)}${text}` +
      `HTTP/1.1 201 Created\r\n${jsonHead('a-3', length)}${text}` +
      // Fastify's own: the pipeline's header after the request id, then the same two.
      `HTTP/1.1 200 OK\r\n${jsonHead('a-4', length).replace('content-type', 'x-extra: yes\r\ncontent-type')}${text}`;
    assert.equal(await exchange(port, get('/direct', 'a-1') + get('/later', 'a-2') + get('/created', 'a-3') + get('/extra', 'a-4'), expected), expected);
  } finally {
    await app.close();
  }
});

test('HEAD gets the same head and no body; a 204 neither body nor content headers', async () => {
  const { app, port, text } = await serving();
  try {
    const length = Buffer.byteLength(text);
    const expected =
      `HTTP/1.1 200 OK\r\n${jsonHead('h-1', length)}` +
      'HTTP/1.1 204 No Content\r\nx-request-id: h-2\r\nDate: <date>\r\nConnection: keep-alive\r\nKeep-Alive: timeout=72\r\n\r\n' +
      `HTTP/1.1 200 OK\r\n${jsonHead('h-3', length)}${text}`;
    // A body after HEAD's head, or one for the 204, would shift everything after it.
    assert.equal(await exchange(port, get('/direct', 'h-1', 'HEAD') + get('/empty', 'h-2') + get('/direct', 'h-3'), expected), expected);
  } finally {
    await app.close();
  }
});
