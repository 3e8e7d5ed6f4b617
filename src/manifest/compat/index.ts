/**
 * Manifests written for the Go project ju4n97/hclapi, read by svc. Every hclapi spelling with a
 * meaning in svc is found by one of the rules below and reported once, as a warning naming svc's own
 * spelling, with the edits that write it so; what svc cannot provide is an error saying so.
 *
 * The loader decodes the edited text (`forLoading`), and `svc fmt --fix` writes the same edits
 * (`fixedSources`): both come from the one list of findings, so what is served and what is written
 * cannot disagree. README.md in this folder lists the rules.
 */
import type { Diagnostic } from '../../diag/index.js';
import { parseFile, type File } from '../../hcl/index.js';
import { applyEdits, orderedEdits, PositionMap, remapDiagnostic, type Edit } from './edit.js';
import type { Finding } from './finding.js';
import { apiBlock } from './rules/api-block.js';
import { renamedArguments } from './rules/blocks.js';
import { connections } from './rules/connections.js';
import { jwtGuards } from './rules/guards.js';
import { positionalProblems } from './rules/problem-call.js';
import { requestSchemas } from './rules/request-schema.js';
import { inlineResponseSchemas } from './rules/respond-schema.js';
import { sizeSuffixes } from './rules/sizes.js';
import { stepOutputs } from './rules/step-outputs.js';
import { unsupported } from './rules/unsupported.js';

export type { Finding } from './finding.js';
export { hasArgumentCommas, repairCommas } from './commas.js';

const RULES = [stepOutputs, renamedArguments, apiBlock, jwtGuards, connections, requestSchemas, inlineResponseSchemas, sizeSuffixes, unsupported];

/** Every hclapi construct of the manifest (all its files at once: the api block spans files). */
export function hclapiFindings(files: readonly File[]): Finding[] {
  const found = RULES.flatMap((rule) => rule(files));
  // problem(status, text) is valid svc too: a warning only where the manifest is hclapi's.
  if (found.length > 0) found.push(...positionalProblems(files));
  return found;
}

/** The files with the edits of `findings` applied (errors' edits too when `withErrors`), by name; unchanged files are absent. */
export function editedSources(files: readonly File[], findings: readonly Finding[], withErrors: boolean): Map<string, { source: string; edits: Edit[] }> {
  const byFile = new Map<string, Edit[]>();
  for (const f of findings) {
    if (f.diagnostic.severity === 'error' && !withErrors) continue;
    for (const e of f.edits) byFile.set(e.filename, [...(byFile.get(e.filename) ?? []), e]);
  }
  const out = new Map<string, { source: string; edits: Edit[] }>();
  for (const file of files) {
    const edits = orderedEdits(byFile.get(file.filename) ?? []);
    if (edits.length > 0) out.set(file.filename, { source: applyEdits(file.source, edits), edits });
  }
  return out;
}

export interface CompatLoad {
  /** What to decode: the edited files in place of the originals. */
  readonly files: File[];
  /** The findings' diagnostics (warnings for accepted spellings, errors for what svc cannot do). */
  readonly diagnostics: Diagnostic[];
  /** A diagnostic of the decoded files with its ranges in the files as written. */
  readonly remap: (d: Diagnostic) => Diagnostic;
}

/**
 * The manifest as svc decodes it. `originals` are the texts as written when the parsed ones had
 * their commas repaired (`repairCommas`), so positions map back to them.
 */
export function forLoading(files: readonly File[], originals: ReadonlyMap<string, string> = new Map()): CompatLoad {
  const findings = hclapiFindings(files);
  const diagnostics = dedupe(findings.map((f) => f.diagnostic));
  const edited = editedSources(files, findings, true);
  // Positions of the decoded (edited) files, and of the parsed ones (the findings'), each to the text as written.
  const maps = new Map<string, PositionMap>();
  const parsedMaps = new Map<string, PositionMap>();
  for (const f of files) {
    const original = originals.get(f.filename) ?? f.source;
    const edits = edited.get(f.filename)?.edits;
    if (edits || original !== f.source) maps.set(f.filename, new PositionMap(original, edits ?? []));
    if (original !== f.source) parsedMaps.set(f.filename, new PositionMap(original, []));
  }
  const remap = (d: Diagnostic): Diagnostic => remapDiagnostic(d, maps);
  const found = diagnostics.map((d) => remapDiagnostic(d, parsedMaps));
  if (findings.length === 0) return { files: [...files], diagnostics: found, remap };
  const out = files.map((f) => {
    const e = edited.get(f.filename);
    if (!e) return f;
    // The edits are whole tokens and blocks, so the edited text parses as the original did; should
    // one not, the file is decoded as written (its hclapi spellings then reported as svc finds them).
    const reparsed = parseFile(e.source, f.filename);
    if (reparsed.diagnostics.some((d) => d.severity === 'error')) {
      const asParsed = parsedMaps.get(f.filename);
      if (asParsed) maps.set(f.filename, asParsed);
      else maps.delete(f.filename);
      return f;
    }
    return reparsed.file;
  });
  return { files: out, diagnostics: found, remap };
}

/** One report per construct and place. */
function dedupe(ds: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return ds.filter((d) => {
    const key = `${d.summary}@${d.subject?.filename}:${d.subject?.start.byte}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
