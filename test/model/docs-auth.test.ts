/**
 * `server { docs_auth = [...] }` (issue 36, endpoint defaults): the default guards of documentation
 * endpoints, so that an API protected by `server.auth` publishes its document and pages without
 * `auth = []` on each; an endpoint's own `auth` still wins; without `docs_auth` they take `auth`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildServiceModel } from '../../src/steps/index.js';

function authOf(server: string): Record<string, readonly string[]> {
  const source = `
    server {
      auth = [auth.keys]
      ${server}
    }
    auth "keys" {
      type = "api_key"
      keys = { alice = "k-alice" }
    }
    endpoint "GET /items" {
      pipeline {
        respond {
          body = []
        }
      }
    }
    endpoint "GET /openapi.json" {
      openapi {
        format = "json"
      }
    }
    endpoint "GET /docs" {
      auth = [auth.keys]
      openapi {
        ui = "scalar"
      }
    }
  `;
  const built = buildServiceModel([{ filename: 'api.hcl', source }], { dir: '.' });
  assert.deepEqual(
    built.diagnostics.map((d) => d.summary),
    [],
  );
  return Object.fromEntries(built.model!.endpoints.map((e) => [e.id, e.auth]));
}

test('docs_auth = []: documentation endpoints are public unless they say otherwise; the API keeps server.auth', () => {
  assert.deepEqual(authOf('docs_auth = []'), { 'GET /items': ['keys'], 'GET /openapi.json': [], 'GET /docs': ['keys'] });
});

test('without docs_auth, documentation endpoints take server.auth as before', () => {
  assert.deepEqual(authOf(''), { 'GET /items': ['keys'], 'GET /openapi.json': ['keys'], 'GET /docs': ['keys'] });
});

test('docs_auth naming a guard that is not declared is a boot error', () => {
  const built = buildServiceModel([{ filename: 'api.hcl', source: 'server {\n  docs_auth = [auth.nope]\n}\n' }], { dir: '.' });
  assert.ok(built.diagnostics.some((d) => d.severity === 'error' && d.subject?.start.line === 2));
});
