/**
 * docs/spec-notes.md summarises every section of SPEC.md and DECISIONS.md (documents kept outside the
 * repository) that a comment in src/ or graph/ cites. This test keeps the two from drifting apart:
 * every cited section must have a heading `## SPEC §<n>` / `## DECISIONS §<n>` in the notes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT as root } from '../paths.js';

const NOTES = join(root, 'docs/spec-notes.md');
const SCANNED = ['src', 'graph'];

/** `§2.4`, `§ 7`, `§1.` (sentence end: the dot is not part of the number). */
const NUMBER = String.raw`§\s*(\d+(?:\.\d+)*)`;
/**
 * A citation: the document name, its first section, then more sections of the same document written
 * as a list or a range (`SPEC.md §2.6, §7`, `DECISIONS.md §2-3`, `§4 and §5`).
 */
const CITATION = new RegExp(String.raw`\b(SPEC|DECISIONS)(?:\.md)?\s*${NUMBER}((?:\s*(?:,|and|[-–])\s*§?\s*\d+(?:\.\d+)*)*)`, 'g');
const MORE = /(,|and|[-–])\s*§?\s*(\d+(?:\.\d+)*)/g;
const HEADING = /^#{2,}\s+(SPEC|DECISIONS)\s+§(\d+(?:\.\d+)*)(?=\s|$)/gm;

/** Every `DOC §n` a text cites, ranges expanded (`§2-3` -> §2 and §3). */
function citationsIn(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(CITATION)) {
    const doc = m[1]!;
    let last = m[2]!;
    found.push(`${doc} §${last}`);
    for (const more of (m[3] ?? '').matchAll(MORE)) {
      const section = more[2]!;
      if (more[1] !== ',' && more[1] !== 'and' && !section.includes('.') && !last.includes('.')) {
        for (let n = Number(last) + 1; n < Number(section); n++) found.push(`${doc} §${n}`);
      }
      found.push(`${doc} §${section}`);
      last = section;
    }
  }
  return found;
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (/\.(ts|js|mjs|cjs|md)$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Cited section -> the places citing it (`file:line`). */
function citedSections(): Map<string, string[]> {
  const cited = new Map<string, string[]>();
  for (const dir of SCANNED) {
    for (const file of filesUnder(join(root, dir))) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const section of citationsIn(line)) {
          const where = `${relative(root, file)}:${i + 1}`;
          cited.set(section, [...(cited.get(section) ?? []), where]);
        }
      });
    }
  }
  return cited;
}

function noteHeadings(): Set<string> {
  const text = readFileSync(NOTES, 'utf8');
  return new Set([...text.matchAll(HEADING)].map((m) => `${m[1]} §${m[2]}`));
}

test('citationsIn reads single sections, lists and ranges', () => {
  assert.deepEqual(citationsIn('(SPEC.md §2.4 rule 3)'), ['SPEC §2.4']);
  assert.deepEqual(citationsIn('see DECISIONS.md §1.'), ['DECISIONS §1']);
  assert.deepEqual(citationsIn('(SPEC.md §2.6, DECISIONS.md §3)'), ['SPEC §2.6', 'DECISIONS §3']);
  assert.deepEqual(citationsIn('SPEC.md §2.6, §7'), ['SPEC §2.6', 'SPEC §7']);
  assert.deepEqual(citationsIn('DECISIONS.md §2-3 define'), ['DECISIONS §2', 'DECISIONS §3']);
  assert.deepEqual(citationsIn('DECISIONS §4-6'), ['DECISIONS §4', 'DECISIONS §5', 'DECISIONS §6']);
  assert.deepEqual(citationsIn('RFC 9110 §5.3 list syntax'), []);
});

test('docs/spec-notes.md has a heading for every SPEC/DECISIONS section cited in src/ and graph/', () => {
  const cited = citedSections();
  assert.ok(cited.size > 0, 'no citation found at all: the scan or its pattern is broken');
  const headings = noteHeadings();
  const missing = [...cited].filter(([section]) => !headings.has(section)).map(([section, places]) => `${section} (cited at ${places.join(', ')})`);
  assert.deepEqual(missing, [], `docs/spec-notes.md needs a "## <SPEC|DECISIONS> §<n> — <title>" heading for:\n${missing.join('\n')}`);
});
