/**
 * A custom step's `failures` (defineStep) are what its endpoint's OpenAPI document lists, and they
 * are real: a `run` whose error has a network error code in its causes answers 503, as the
 * documentation says, and one that runs out of time 504.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, defineStep, loadService } from '../../src/index.js';
import { tempManifest } from './helpers.js';

const MANIFEST = `
server {
  shutdown_timeout = "2s"
}

endpoint "GET /refused" {
  pipeline {
    reach "r" {}
    respond {
      body = steps.r.value
    }
  }
}

endpoint "GET /slow" {
  pipeline {
    reach "r" {
      slow    = true
      timeout = "20ms"
    }
    respond {
      body = steps.r.value
    }
  }
}
`;

const reach = defineStep({
  name: 'reach',
  attributes: { slow: { type: 'bool' } },
  outputs: ['value'],
  failures: [503, 504],
  run({ slow }, { signal }) {
    if (slow) return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    throw new Error('the geocoder is unreachable', { cause: refused });
  },
});

test("a custom step's declared failures are documented, and are the statuses its failures answer with", async () => {
  const m = tempManifest(MANIFEST);
  const loaded = await loadService(m.dir, { steps: [reach] });
  assert.equal(loaded.report, '');
  const document = loaded.service!.openapi() as { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
  for (const path of ['/refused', '/slow']) assert.deepEqual(Object.keys(document.paths[path]!.get.responses), ['200', '500', '503', '504']);

  const server = await createServer(loaded.service!, { log: { level: 'fatal' } });
  try {
    const { url } = await server.listen({ host: '127.0.0.1', port: 0 });
    const refused = await fetch(`${url}/refused`);
    assert.equal(refused.status, 503);
    assert.equal(((await refused.json()) as { type: string }).type, 'urn:svc:error:dependency-unavailable');
    const slow = await fetch(`${url}/slow`);
    assert.equal(slow.status, 504);
    assert.equal(((await slow.json()) as { type: string }).type, 'urn:svc:error:timeout');
  } finally {
    await server.close();
    m.remove();
  }
});
