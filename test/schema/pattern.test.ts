import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mayBacktrackCatastrophically } from '../../src/schema/pattern.js';

test('nested quantifiers and alternations inside a repeated group are flagged', () => {
  for (const p of [
    '^(a+)+$',
    '^(a*)*$',
    '^(a|aa)+$',
    '(a|a)*',
    '^(\\w+\\s?)*$',
    '^([a-z]+)*$',
    '^(?:a+){2,}$',
    '^(a+)+?$',
    '^((ab)+c)*$',
    '^((a|b)c)*$',
    '^x(?<n>a{1,3})+$',
    '^(a[a-z]+)*$', // the leading `a` is matched by the repeated [a-z] too
    '^(.+)+$',
    '(?:(?:a+)b?)+',
  ]) {
    assert.equal(mayBacktrackCatastrophically(p), true, p);
  }
});

test('common unambiguous patterns are not flagged', () => {
  for (const p of [
    '^[a-zA-Z0-9_-]+$',
    '^[a-z0-9]+(?:-[a-z0-9]+)*$', // a slug: `-` separates the repetitions
    '^[a-z]+(\\.[a-z]+)+$',
    '^(foo|bar)+$',
    '^(ab)+$',
    '^(a+)?$', // an optional group does not repeat
    '^(a+){1}$',
    '^\\d{3}-\\d{4}$',
    '^(?=.*\\d)(?=.*[a-z]).{8,}$', // lookarounds
    '^[(a+)+]$', // a class, not a group
    '^\\(a+\\)+$', // escaped parentheses
    '^\\p{L}+$',
  ]) {
    assert.equal(mayBacktrackCatastrophically(p), false, p);
  }
});
