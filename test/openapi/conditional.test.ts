/** What ETags and Cache-Control add to the document: the 304 where it can occur, the ETag and Cache-Control headers. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentOf, operation } from './helpers.js';

const SOURCE = `
route "GET /tagged" {
  etag          = true
  cache_control = "public, max-age=60"
  respond {
    body = { ok = true }
  }
}
route "GET /cached" {
  cache_control = "no-store"
  respond {
    body = { ok = true }
  }
}
route "POST /tagged" {
  etag = true
  respond {
    body = { ok = true }
  }
}
route "GET /plain" {
  respond {
    body = { ok = true }
  }
}
`;

test('an endpoint with etag: 304 listed with ETag and Cache-Control, and its 200 carries both', () => {
  const doc = documentOf(SOURCE);
  const responses = operation(doc, 'GET', '/tagged').responses;
  assert.deepEqual(Object.keys(responses), ['200', '304', '500']);
  assert.match(responses['304'].description, /^Not Modified/);
  assert.equal(responses['304'].content, undefined);
  assert.deepEqual(Object.keys(responses['304'].headers), ['ETag', 'Cache-Control']);
  assert.equal(responses['200'].headers.ETag.required, true);
  assert.match(responses['200'].headers['Cache-Control'].description, /public, max-age=60/);
});

test('cache_control alone: the header, no 304; another method or no settings: nothing added', () => {
  const doc = documentOf(SOURCE);
  const cached = operation(doc, 'GET', '/cached').responses;
  assert.equal(cached['304'], undefined);
  assert.deepEqual(Object.keys(cached['200'].headers), ['Cache-Control']);
  const post = operation(doc, 'POST', '/tagged').responses;
  assert.equal(post['304'], undefined);
  assert.equal(post['200'].headers, undefined);
  const plain = operation(doc, 'GET', '/plain').responses;
  assert.equal(plain['304'], undefined);
  assert.equal(plain['200'].headers, undefined);
});
