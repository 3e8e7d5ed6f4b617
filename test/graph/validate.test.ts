import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileGraph, type GraphError, type NodeDef } from '../../graph/index.js';
import type { Scope } from './helpers.js';

const step = (name: string, reads: string[] = []): NodeDef<Scope> => ({ type: 'step', name, kind: 'sql', reads, run: () => name });
const respond = (reads: string[] = [], condition?: () => boolean): NodeDef<Scope> => ({
  type: 'exit',
  reads,
  run: () => 1,
  ...(condition ? { condition } : {}),
});

function errorsOf(nodes: NodeDef<Scope>[], requireOutcome = false): Pick<GraphError, 'code' | 'ids' | 'target'>[] {
  const result = compileGraph<Scope>({ nodes }, { requireOutcome });
  return result.errors.map((e) => ({ code: e.code, ids: e.ids, ...(e.target !== undefined ? { target: e.target } : {}) }));
}

test('a valid graph compiles with no errors and exposes its plan', () => {
  const result = compileGraph<Scope>({ nodes: [step('a'), { type: 'parallel', branches: [step('b', ['a']), step('c', ['a'])] }, respond(['b', 'c'])] });
  assert.equal(result.ok, true);
  assert.deepEqual(
    result.graph!.plan.map((n) => [n.id, n.type]),
    [
      ['a', 'step'],
      ['parallel#1', 'parallel'],
      ['respond#1', 'exit'],
    ],
  );
  assert.deepEqual(
    result.graph!.plan[1]!.branches!.map((b) => b.map((n) => n.id)),
    [['b'], ['c']],
  );
});

test('unknown read target', () => {
  assert.deepEqual(errorsOf([step('a', ['nope']), respond()]), [{ code: 'unknown-read', ids: ['a'], target: 'nope' }]);
});

test('reading a node that has no output (a respond) is an unknown read naming both', () => {
  const named: NodeDef<Scope> = { type: 'exit', name: 'gone', condition: () => false, run: () => 1 };
  assert.deepEqual(errorsOf([named, step('a', ['gone']), respond()]), [{ code: 'unknown-read', ids: ['a', 'gone'], target: 'gone' }]);
});

test('a read of a step that runs later', () => {
  assert.deepEqual(errorsOf([step('a', ['b']), step('b'), respond()]), [{ code: 'read-before-run', ids: ['a', 'b'], target: 'b' }]);
});

test('a read of a sibling parallel branch', () => {
  assert.deepEqual(errorsOf([{ type: 'parallel', id: 'fan', branches: [step('a'), step('b', ['a'])] }, respond()]), [
    { code: 'read-parallel-sibling', ids: ['b', 'a'], target: 'a' },
  ]);
});

test('a read of an inner step from inside a container is fine; of the container itself from inside is not', () => {
  const tx = (body: NodeDef<Scope>[]): NodeDef<Scope> => ({ type: 'container', kind: 'transaction', name: 'tx', body, wrap: {} });
  assert.deepEqual(errorsOf([tx([step('a'), step('b', ['a'])]), respond(['a', 'b', 'tx'])]), []);
  assert.deepEqual(errorsOf([tx([step('a', ['tx'])]), respond()]), [{ code: 'read-before-run', ids: ['a', 'tx'], target: 'tx' }]);
});

test('duplicate names, with both ids', () => {
  assert.deepEqual(errorsOf([step('a'), { type: 'parallel', branches: [step('a')] }, respond()]), [{ code: 'duplicate-name', ids: ['a', 'a'] }]);
});

test('cycles are reported once, with the node ids in cycle order (and not also as forward reads)', () => {
  assert.deepEqual(errorsOf([step('a', ['b']), step('b', ['a']), respond()]), [{ code: 'cycle', ids: ['a', 'b'], target: 'a' }]);
  assert.deepEqual(errorsOf([step('self', ['self']), respond()]), [{ code: 'cycle', ids: ['self'], target: 'self' }]);
});

test('structure: empty parallel, exit inside a parallel branch, unreachable nodes, bad time-out, missing name', () => {
  assert.deepEqual(errorsOf([{ type: 'parallel', id: 'p', branches: [] }, respond()]), [{ code: 'empty-parallel', ids: ['p'] }]);
  assert.deepEqual(errorsOf([{ type: 'parallel', branches: [step('a'), respond()] }, respond()]), [{ code: 'terminal-in-parallel', ids: ['respond#1'] }]);
  assert.deepEqual(errorsOf([respond(), step('a'), respond()]), [{ code: 'unreachable', ids: ['a', 'respond#2'] }]);
  assert.deepEqual(errorsOf([{ type: 'step', name: 't', kind: 'http', timeout: -1, run: () => 1 }, respond()]), [{ code: 'invalid-timeout', ids: ['t'] }]);
  assert.deepEqual(errorsOf([{ type: 'step', name: '', kind: 'expr', run: () => 1 }, respond()]), [{ code: 'missing-name', ids: ['expr#1'] }]);
});

test('requireOutcome: a pipeline that can finish without exit or stream is a no-response error', () => {
  assert.deepEqual(errorsOf([step('a'), respond([], () => true)], true), [{ code: 'no-response', ids: ['respond#1'] }]);
  assert.deepEqual(errorsOf([step('a'), respond([], () => true), respond()], true), []);
  // A container whose body always responds ends the pipeline too.
  assert.deepEqual(errorsOf([{ type: 'container', kind: 'transaction', name: 'tx', body: [respond()], wrap: {} }], true), []);
});

test('every error is reported at once', () => {
  const codes = errorsOf([step('a', ['zz']), step('a'), step('b', ['c']), step('c'), { type: 'parallel', branches: [] }], true).map((e) => e.code);
  assert.deepEqual(codes.sort(), ['duplicate-name', 'empty-parallel', 'no-response', 'read-before-run', 'unknown-read']);
});
