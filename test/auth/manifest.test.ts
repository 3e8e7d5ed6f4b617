/** What the guard blocks decode to, and the boot errors of the attributes this issue adds. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeOf } from '../../src/diag/index.js';
import { buildServiceModel } from '../../src/steps/index.js';

function build(source: string) {
  return buildServiceModel([{ filename: 'f.hcl', source }]);
}

function errors(source: string): string[] {
  return build(source).diagnostics.map((d) => `${d.subject?.start.line}: ${d.summary}: ${d.detail ?? ''}`);
}

test('required_claims as a list (present) or a map (value); api_key in a query parameter', () => {
  const r = build(`auth "a" {
  type = "bearer"
  jwt {
    secret          = "s"
    required_claims = ["tenant"]
  }
}
auth "b" {
  type = "bearer"
  jwt {
    jwks_url        = "https://sso.example.com/jwks.json"
    algorithms      = ["ES256", "EdDSA"]
    required_claims = { role = "admin", level = 3, active = true }
  }
}
auth "q" {
  type  = "api_key"
  query = "api_key"
  keys  = ["k"]
}
auth "h" {
  type = "api_key"
  keys = ["k"]
}
`);
  assert.deepEqual(r.diagnostics, []);
  const auths = r.model!.auths;
  const a = auths.get('a')!;
  const b = auths.get('b')!;
  assert.ok(a.type === 'bearer' && b.type === 'bearer');
  assert.deepEqual(a.jwt?.requiredClaims, [{ name: 'tenant' }]);
  assert.deepEqual(b.jwt?.requiredClaims, [
    { name: 'role', value: 'admin' },
    { name: 'level', value: 3 },
    { name: 'active', value: true },
  ]);
  assert.deepEqual(b.jwt?.algorithms, ['ES256', 'EdDSA']);
  const q = auths.get('q')!;
  assert.ok(q.type === 'api_key');
  assert.equal(q.query, 'api_key');
  assert.equal(q.header, undefined);
  const h = auths.get('h')!;
  assert.ok(h.type === 'api_key');
  assert.equal(h.header, 'x-api-key');
});

test('boot errors: algorithms that do not fit the key, unknown or none, an empty list; a bad jwks_url; bad required_claims', () => {
  assert.deepEqual(
    errors(`auth "a" {
  type = "bearer"
  jwt {
    secret     = "s"
    algorithms = ["RS256"]
  }
}
auth "b" {
  type = "bearer"
  jwt {
    jwks_url   = "https://sso.example.com/jwks.json"
    algorithms = ["HS256"]
  }
}
auth "c" {
  type = "bearer"
  jwt {
    secret     = "s"
    algorithms = ["none"]
  }
}
auth "d" {
  type = "bearer"
  jwt {
    secret     = "s"
    algorithms = []
  }
}
auth "e" {
  type = "bearer"
  jwt {
    jwks_url = "file:///etc/keys.json"
  }
}
auth "f" {
  type = "bearer"
  jwt {
    secret          = "s"
    required_claims = { role = ["a"] }
  }
}
`),
    [
      '5: Invalid value: "RS256" needs a public key (jwks_url); with a secret the algorithms are HS256, HS384, HS512.',
      '12: Invalid value: "HS256" needs a shared secret; with jwks_url the algorithms are RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA, Ed25519.',
      '19: Invalid value: "none" is not a supported signature algorithm; with a secret they are HS256, HS384, HS512.',
      '26: Invalid value: "algorithms" is empty, so the guard admits no token.',
      '32: Invalid value: "file:///etc/keys.json" is not an absolute http: or https: URL.',
      '39: Incorrect attribute value type: Inappropriate value for attribute "required_claims": a list of claim names or a map of claim = value (string, number or bool) is required.',
    ],
  );
});

test('boot errors: an api_key with both header and query, a bad query name; query on another guard type', () => {
  assert.deepEqual(
    errors(`auth "a" {
  type   = "api_key"
  header = "x-key"
  query  = "key"
  keys   = ["k"]
}
auth "b" {
  type  = "api_key"
  query = "a key"
  keys  = ["k"]
}
auth "c" {
  type     = "basic"
  username = "u"
  password = "p"
  query    = "key"
}
`).map((e) => e.split(':')[0] + ':' + e.split(':')[1]),
    ['4: Conflicting arguments', '9: Invalid value', '16: Unsupported argument'],
  );
});

test('a jwks_url over plain http: to a host that is not loopback is a warning with its code; https: and loopback are not', () => {
  const guard = (name: string, url: string) => `auth "${name}" {\n  type = "bearer"\n  jwt {\n    jwks_url = "${url}"\n  }\n}\n`;
  const r = build(
    guard('remote', 'http://sso.example.com/jwks.json') +
      guard('address', 'http://10.0.0.7:8080/keys') +
      guard('tls', 'https://sso.example.com/jwks.json') +
      guard('local', 'http://localhost:8080/keys') +
      guard('v4', 'http://127.0.0.1:9/keys') +
      guard('v6', 'http://[::1]:9/keys'),
  );
  assert.ok(r.model, 'a warning does not stop the boot');
  assert.deepEqual(
    r.diagnostics.map((d) => [d.severity, d.subject?.start.line, d.subject?.start.column, codeOf(d)]),
    [
      ['warning', 4, 16, 'SVC_AUTH_INSECURE_JWKS_URL'],
      ['warning', 10, 16, 'SVC_AUTH_INSECURE_JWKS_URL'],
    ],
  );
  assert.match(r.diagnostics[0]!.detail!, /^"http:\/\/sso\.example\.com\/jwks\.json" is fetched without TLS/);
});
