/**
 * Property-based fuzzing of URL templates (issue 35): whatever the request holds, the upstream an
 * http step calls sees only the path and query its url template intends. A real upstream on
 * loopback records the raw request target it receives; for every random request:
 * - the path has the template's segments, no more and no fewer, and each segment made of a value
 *   decodes to that value (as svc read it from the request);
 * - the query has the template's parameters, in order, and each value decodes to its value;
 * - or, when a value is `.` or `..` (a dot segment no encoding can keep one segment), the request
 *   is answered 400 and nothing is sent.
 * Values come from a JSON body (any Unicode, lone surrogates included) and from the path and query
 * string of a real socket (what the router and the query parser decode). `npm test` runs a short
 * budget with a fixed seed; `npm run fuzz` a long one (budget.ts).
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { listenLocal } from '../http/stream-helpers.js';
import { serve, upstream, type Served, type Upstream } from '../http-step/helpers.js';
import { budget, CASE_MS } from './budget.js';

const MANIFEST = `
endpoint "POST /body" {
  request {
    body {
      field "a" {
        type = string
      }
      field "b" {
        type = string
      }
      field "q" {
        type = string
      }
      field "r" {
        type = string
      }
    }
  }
  pipeline {
    http "up" {
      url = "{{UPSTREAM}}/fixed/\${ctx.request.body.a}/mid/\${ctx.request.body.b}?q=\${ctx.request.body.q}&r=\${ctx.request.body.r}&lit=x#\${ctx.request.body.a}"
    }
    respond {
      body = { seen = [ctx.request.body.a, ctx.request.body.b, ctx.request.body.q, ctx.request.body.r], up = steps.up.body }
    }
  }
}

endpoint "GET /socket/{a}" {
  request {
    path {
      field "a" {
        type = string
      }
    }
    query {
      field "q" {
        type = string
      }
    }
  }
  pipeline {
    http "up" {
      url = "{{UPSTREAM}}/fixed/\${ctx.request.path.a}/\${ctx.request.path.a}x?q=\${ctx.request.query.q}&lit=x"
    }
    respond {
      body = { seen = [ctx.request.path.a, ctx.request.query.q], up = steps.up.body }
    }
  }
}
`;

/** What breaks URLs: separators, escapes of them, dot segments, and text around them. */
const PIECES = [
  '.',
  '..',
  '/',
  '\\',
  '?',
  '#',
  '&',
  '=',
  '+',
  '%',
  '%2F',
  '%2f',
  '%2e',
  '%2E',
  '%5C',
  '%3F',
  '%23',
  '%25',
  '%00',
  ' ',
  '\t',
  '\n',
  ';',
  ':',
  '@',
  'a',
  'é',
  '😀',
  '\u0000',
  '\ud800',
];

/** A value: mostly pieces joined (`..%2F`, `.`, `a?b#c`), sometimes any Unicode text. */
const value = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
);

/** The values no encoding keeps one segment, often enough to be met in a short run. */
const dots = fc.constantFrom('.', '..');
const segmentValue = fc.oneof({ weight: 6, arbitrary: value }, { weight: 1, arbitrary: dots });

/** A UTF-16 surrogate without its pair. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A value as it arrives once encoded and decoded: a lone surrogate cannot be UTF-8, so it is U+FFFD. */
const carried = (v: string): string => v.replace(LONE_SURROGATE, '\uFFFD');

/** A value a client can put in a URL (well-formed UTF-16: percent-encoding needs UTF-8). */
const urlValue = value.filter((v) => v !== '' && carried(v) === v);

let up: Upstream;
let svc: Served;
let base: string;

before(async () => {
  up = await upstream((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ url: req.url }));
  });
  svc = await serve(MANIFEST, up.url);
  base = await listenLocal(svc.app);
});

after(async () => {
  await svc?.close();
  await up?.close();
});

const isDotSegment = (s: string): boolean => s === '.' || s === '..';

/** The path's segments (decoded) and the query's pairs (decoded) of a raw request target. */
function split(target: string): { segments: string[]; pairs: [string, string][] } {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const query = q < 0 ? '' : target.slice(q + 1);
  assert.ok(!target.includes('#'), `no fragment is sent: ${target}`);
  return {
    segments: path.split('/').map((s) => decodeURIComponent(s)),
    pairs: query.split('&').map((p) => {
      const eq = p.indexOf('=');
      assert.ok(eq > 0, `a pair: ${p} in ${target}`);
      return [decodeURIComponent(p.slice(0, eq)), decodeURIComponent(p.slice(eq + 1))];
    }),
  };
}

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** Asserts what the upstream saw for one answer of svc; `sentBefore` is the upstream's count before. */
function check(answer: Answer, sentBefore: number, intended: (seen: string[]) => { segments: string[]; pairs: [string, string][] }, dots: boolean): void {
  const arrived = up.received.slice(sentBefore);
  if (dots) {
    assert.equal(answer.status, 400, `a . or .. segment is refused: ${answer.body}`);
    assert.equal(arrived.length, 0, 'nothing is sent upstream');
    return;
  }
  assert.equal(answer.status, 200, answer.body);
  assert.equal(arrived.length, 1);
  const { seen, up: upstreamSaw } = JSON.parse(answer.body) as { seen: string[]; up: { url: string } };
  assert.equal(upstreamSaw.url, arrived[0]!.url);
  assert.deepEqual(split(arrived[0]!.url), intended(seen.map(carried)), arrived[0]!.url);
}

test('values from a JSON body: the upstream sees the intended path and query', async () => {
  await fc.assert(
    fc.asyncProperty(fc.record({ a: segmentValue, b: segmentValue, q: value, r: value }), async (values) => {
      const before = up.received.length;
      const res = await svc.app.inject({ method: 'POST', url: '/body', payload: values });
      check(
        { status: res.statusCode, body: res.body },
        before,
        ([a, b, q, r]) => ({
          segments: ['', 'fixed', a!, 'mid', b!],
          pairs: [
            ['q', q!],
            ['r', r!],
            ['lit', 'x'],
          ],
        }),
        isDotSegment(values.a) || isDotSegment(values.b),
      );
    }),
    { ...budget({ short: 150, long: 20_000, shortMs: 4000, longMs: 300_000 }) },
  );
});

/** GETs `path` as written, on a real socket (a URL string would be resolved by the client first). */
function getRaw(path: string): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, timeout: CASE_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${CASE_MS} ms`)));
    req.on('error', reject);
    req.end();
  });
}

test('values from the path and query string of a real socket: the upstream sees the intended path and query', async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof({ weight: 4, arbitrary: urlValue }, { weight: 1, arbitrary: dots }), urlValue, fc.boolean(), async (a, q, plainDots) => {
      // Dots as a client writes them (`/socket/..`) or percent-encoded (`%2E%2E`): both reach the router.
      const segment = plainDots && /^\.{1,2}$/.test(a) ? a : encodeURIComponent(a).replace(/\./g, '%2E');
      const before = up.received.length;
      const answer = await getRaw(`/socket/${segment}?q=${encodeURIComponent(q)}`);
      if (answer.status === 404) {
        // The router found no endpoint (an empty or resolved segment): nothing may have been sent.
        assert.equal(up.received.length, before);
        return;
      }
      const seen = answer.status === 200 ? (JSON.parse(answer.body) as { seen: string[] }).seen : [a];
      check(
        answer,
        before,
        ([pa, pq]) => ({
          segments: ['', 'fixed', pa!, `${pa!}x`],
          pairs: [
            ['q', pq!],
            ['lit', 'x'],
          ],
        }),
        isDotSegment(seen[0]!),
      );
    }),
    { ...budget({ short: 100, long: 10_000, shortMs: 4000, longMs: 300_000 }) },
  );
});
