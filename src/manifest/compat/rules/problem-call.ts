/**
 * `problem(status, text[, type])` in a manifest written for hclapi: there the text is the detail and
 * the third argument a type; svc reads `problem(status, title[, detail])`, and svc's documented
 * meaning wins. The warning says what differs and how to keep hclapi's meaning. Only reported in a
 * manifest with other hclapi spellings (the caller decides), since the call is valid svc too.
 */
import type { File } from '../../../hcl/index.js';
import type { Finding } from '../finding.js';
import { expressionsUnder, topBlocks } from '../walk.js';

export function positionalProblems(files: readonly File[]): Finding[] {
  const out: Finding[] = [];
  for (const { block } of topBlocks(files)) {
    for (const e of expressionsUnder(block.body)) {
      if (e.kind !== 'FunctionCall' || e.name !== 'problem' || e.args.length < 2) continue;
      const third = e.args.length > 2 ? ', type = <third argument>' : '';
      out.push({
        diagnostic: {
          severity: 'warning',
          summary: 'hclapi problem() arguments',
          subject: e.range,
          detail:
            `svc reads problem(status, title, detail): the second argument is the title here, ${e.args.length > 2 ? 'and the third the detail, ' : ''}where hclapi made the second the detail` +
            `${e.args.length > 2 ? ' and the third a type' : ' and the title the status text'}. svc's meaning is kept; for hclapi's, write problem({ status = <status>, detail = <second argument>${third} }).`,
        },
        edits: [],
      });
    }
  }
  return out;
}
