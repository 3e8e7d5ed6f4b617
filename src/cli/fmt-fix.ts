/**
 * `svc fmt --fix`: a manifest written for hclapi rewritten in svc's own spellings. The edits are the
 * ones the loader decodes (src/manifest/compat, one list of findings for both), over all the files
 * at once since an hclapi `api` block changes the endpoints of other files. What svc cannot provide
 * (a go step, an engine without a connector) is left as it is and reported.
 */
import type { Diagnostic } from '../diag/index.js';
import { parseFile } from '../hcl/index.js';
import { editedSources, hasArgumentCommas, hclapiFindings, repairCommas } from '../manifest/index.js';

export interface FixResult {
  /** The new text of each file that changes, by name. */
  readonly texts: Map<string, string>;
  /** The errors left: constructs svc cannot provide. */
  readonly diagnostics: Diagnostic[];
}

/** Files that do not parse are left out (the formatter reports them). */
export function fixSources(files: readonly { readonly name: string; readonly source: string }[]): FixResult {
  const parsed = [];
  const texts = new Map<string, string>();
  for (const f of files) {
    let { file, diagnostics } = parseFile(f.source, f.name);
    if (hasArgumentCommas(diagnostics, f.source)) {
      const repaired = repairCommas(f.source, f.name);
      ({ file, diagnostics } = parseFile(repaired.source, f.name));
      texts.set(f.name, repaired.source);
    }
    if (diagnostics.some((d) => d.severity === 'error')) {
      texts.delete(f.name);
      continue;
    }
    parsed.push(file);
  }
  const findings = hclapiFindings(parsed);
  for (const [name, { source }] of editedSources(parsed, findings, false)) texts.set(name, source);
  return { texts, diagnostics: findings.map((f) => f.diagnostic).filter((d) => d.severity === 'error') };
}
