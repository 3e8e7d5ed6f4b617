/** Guard declarations that would admit anyone, or no one, are boot errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildServiceModel } from '../../src/steps/index.js';

function errors(source: string): string[] {
  return buildServiceModel([{ filename: 'f.hcl', source }]).diagnostics.map((d) => `${d.subject?.start.line}: ${d.summary}`);
}

test('empty credentials are refused: password, user name, token, key, jwt secret', () => {
  assert.deepEqual(
    errors(`auth "b" {
  type     = "basic"
  username = "admin"
  password = env("SVC_GUARDS_TEST_UNSET", "")
}
auth "t" {
  type   = "bearer"
  tokens = ["ok", ""]
}
auth "k" {
  type = "api_key"
  keys = { mobile = "" }
}
auth "j" {
  type = "bearer"
  jwt {
    secret = ""
  }
}
`),
    ['4: Empty credential', '8: Empty credential', '12: Empty credential', '17: Empty credential'],
  );
});

test('a guard that admits no request, a user name with ":", a header name with a space', () => {
  assert.deepEqual(
    errors(`auth "t" {
  type   = "bearer"
  tokens = []
}
auth "k" {
  type   = "api_key"
  header = "X Api Key"
  keys   = ["k"]
}
auth "b" {
  type     = "basic"
  username = "a:b"
  password = "p"
}
`),
    ['3: Invalid value', '7: Invalid value', '12: Invalid value'],
  );
});

test('well-formed guards still decode', () => {
  const r = buildServiceModel([
    {
      filename: 'f.hcl',
      source: `auth "t" {
  type   = "bearer"
  tokens = []
  jwt {
    secret = "s"
  }
}
auth "k" {
  type   = "api_key"
  header = "X-Api-Key"
  keys   = ["k"]
}
endpoint "GET /" {
  auth = [auth.t, auth.k]
  pipeline {
    respond {}
  }
}
`,
    },
  ]);
  assert.deepEqual(r.diagnostics, []);
  assert.equal(r.model!.auths.size, 2);
});
