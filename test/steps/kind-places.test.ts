/**
 * Where steps may be written comes from the step kinds' definitions: a kind that `holdsSteps` is a
 * place (named by its kind) that other kinds' `notIn` may name, besides the endpoint's own pipeline
 * and after_response. Two kinds defined here, and nowhere in src/manifest, show it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block } from '../../src/hcl/index.js';
import { type AnyStepKindModel, buildModel } from '../../src/model/index.js';
import { STEP_KINDS } from '../../src/steps/index.js';

/** `group "<name>" { <steps> }`: holds steps, run in order. */
const group: AnyStepKindModel = {
  kind: 'group',
  blocks: { group: { labels: ['name'], multiple: true } },
  holdsSteps: true,
  lower: (block, cx) => ({
    kind: 'group',
    name: block.labels[0],
    steps: cx.lowerNested(
      block.body.items.filter((i): i is Block => i.kind === 'Block'),
      'group',
    ),
    range: block.range,
    blockPath: cx.scope.path,
  }),
  children: (spec) => ({ steps: spec.steps, run: 'sequence' }),
};

/** `mark "<name>" {}`: refused inside a group. */
const mark: AnyStepKindModel = {
  kind: 'mark',
  blocks: { mark: { labels: ['name'], multiple: true } },
  notIn: { group: 'a group holds no mark' },
  lower: (block, cx) => ({ kind: 'mark', name: block.labels[0], range: block.range, blockPath: cx.scope.path }),
};

function build(pipeline: string, steps: readonly AnyStepKindModel[]) {
  const source = `endpoint "GET /x" {\n  pipeline {\n${pipeline}\n    respond {\n      body = {}\n    }\n  }\n}\n`;
  return buildModel([{ filename: 'main.hcl', source }], { steps: [...STEP_KINDS, ...steps] });
}

test("a kind that holds steps is a place another kind's notIn names", () => {
  const inGroup = build('    group "g" {\n      mark "m" {}\n    }', [group, mark]);
  assert.deepEqual(
    inGroup.diagnostics.map((d) => [d.summary, d.detail, d.subject?.start.line]),
    [['Unexpected mark step', 'A mark step is not allowed here: a group holds no mark.', 4]],
  );
  // Elsewhere it is welcome, and the group lowers the built-in kinds in it as any place does.
  const outside = build('    mark "m" {}\n    group "g" {\n      respond {\n        body = {}\n      }\n    }', [group, mark]);
  assert.deepEqual(
    outside.diagnostics.map((d) => d.summary),
    [],
  );
});

test("a notIn that names no place is the definition's mistake, refused when the kinds are given", () => {
  // Without the group kind, "group" is no place.
  assert.throws(
    () => build('', [mark]),
    /step kind "mark": notIn names "group", which is not a place steps are written in \(pipeline, after_response, .*transaction.*\)/,
  );
});

test('only a kind that holds steps lowers steps, and only into its own place', () => {
  const sneaky: AnyStepKindModel = { ...group, kind: 'sneaky', blocks: { sneaky: { labels: ['name'] } }, holdsSteps: false };
  assert.throws(() => build('    sneaky "s" {}', [sneaky]), /step kind "sneaky" lowers steps into "group": only a kind that holdsSteps may/);
});
