import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { toDot } from '../../graph/index.js';
import { dotString } from '../../graph/dot.js';
import { graph } from './helpers.js';

const health = graph([{ type: 'exit', label: 'respond 200', run: () => 'ok' }]);
const search = graph([
  { type: 'step', name: 'user', kind: 'sql', label: 'SELECT "x" \\N {a|b} <c>', run: () => 1 },
  { type: 'exit', reads: ['user'], condition: () => false, label: 'if steps.user.rows_affected == 0', run: () => 404 },
  {
    type: 'parallel',
    branches: [
      { type: 'step', name: 'orders', kind: 'sql', reads: ['user'], run: () => 2 },
      [
        { type: 'step', name: 'cached', kind: 'redis', run: () => 3 },
        { type: 'step', name: 'score', kind: 'starlark', reads: ['cached'], run: () => 4 },
      ],
    ],
  },
  {
    type: 'container',
    kind: 'transaction',
    name: 'tx',
    body: [{ type: 'step', name: 'audit', kind: 'sql', reads: ['orders'], run: () => 5 }],
    wrap: {},
  },
  { type: 'sink', kind: 'stream', label: 'sse', reads: ['orders', 'score', 'tx'], run: () => ({ source: [] }) },
]);
const graphs = [
  { name: 'GET /api/v1/health', graph: health },
  { name: 'GET /api/v1/users/{id}/orders "quoted"', graph: search },
];

test('DOT: one cluster per endpoint labelled with its name; nodes labelled kind and name', () => {
  const dot = toDot(graphs);
  assert.match(dot, /^digraph svc \{/);
  assert.match(dot, /subgraph cluster_0 \{\n\s+label="GET \/api\/v1\/health";/);
  assert.match(dot, /subgraph cluster_1 \{\n\s+label="GET \/api\/v1\/users\/\{id\}\/orders \\"quoted\\"";/);
  assert.match(dot, /e1_n1 \[shape=box, label="sql\\nuser\\nSELECT \\"x\\" \\\\N \{a\|b\} <c>"\];/);
  assert.match(dot, /label="respond\\nrespond 200"/);
});

test('DOT: control edges solid, data edges dashed, legend comment, parallel and container clusters, exits', () => {
  const dot = toDot(graphs);
  assert.match(dot, /\/\/ Legend:/);
  // control: start -> user -> conditional respond -> (false) fork
  assert.match(dot, /e1_start -> e1_n1;/);
  assert.match(dot, /e1_n1 -> e1_n2;/);
  assert.match(dot, /e1_n2 -> e1_n3_fork \[label="false"\];/);
  assert.match(dot, /e1_n2 -> e1_response \[style=bold, label="true"\];/);
  // data: user -> orders (dashed), cached -> score
  assert.match(dot, /e1_n1 -> e1_n4 \[style=dashed/);
  assert.match(dot, /e1_n5 -> e1_n6 \[style=dashed/);
  // parallel as a nested dashed cluster with fork and join
  assert.match(dot, /subgraph cluster_e1_1 \{\n\s+label="parallel";\n\s+style=dashed;/);
  assert.match(dot, /e1_n6 -> e1_n3_join;/);
  // transaction as a nested cluster
  assert.match(dot, /subgraph cluster_e1_2 \{\n\s+label="transaction\\ntx";/);
  // enter -> audit -> leave; the container's output is read from its leave node
  assert.match(dot, /e1_n7 -> e1_n8;/);
  assert.match(dot, /e1_n8 -> e1_n7_leave;/);
  assert.match(dot, /e1_n7_leave -> e1_n9 \[style=dashed/);
  // the stream ends the run
  assert.match(dot, /e1_n9 -> e1_response \[style=bold, label="stream"\];/);
  assert.doesNotMatch(dot, /end without response/);
});

test('DOT: a pipeline that can fall through shows where it ends without a response', () => {
  const dot = toDot([{ name: 'POST /x', graph: graph([{ type: 'exit', condition: () => true, run: () => 1 }]) }]);
  assert.match(dot, /e0_end \[shape=plaintext, label="end without response"\];/);
  assert.match(dot, /e0_n1 -> e0_end \[label="false"\];/);
});

test('DOT escaping: backslashes, quotes, newlines and control characters', () => {
  assert.equal(dotString('a"b\\c\nd\te'), '"a\\"b\\\\c\\nd e"');
});

test('DOT output is accepted by Graphviz (dot -Tsvg)', (t) => {
  const probe = spawnSync('dot', ['-V'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) {
    t.skip('Graphviz `dot` is not installed (apt-get install -y graphviz); DOT syntax not checked by Graphviz');
    return;
  }
  const run = spawnSync('dot', ['-Tsvg'], { input: toDot(graphs), encoding: 'utf8' });
  assert.equal(run.stderr, '', run.stderr);
  assert.equal(run.status, 0);
  assert.match(run.stdout, /<svg/);
  assert.match(run.stdout, /GET \/api\/v1\/health/);
});
