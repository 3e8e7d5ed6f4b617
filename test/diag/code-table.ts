/**
 * A list of diagnostic codes as a Markdown table (code, summary, meaning): docs/diagnostics.md's
 * tables (test/diag/codes.test.ts) and each step kind's table on its manual page
 * (test/docs/manual-tables.test.ts) are written the same way, and link to each other.
 */
import type { DiagnosticCode } from '../../src/diag/index.js';

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/</g, '\\<');

/** `{name}` and `{text...}` placeholders shown as `<name>`, `<text>`. */
const summary = (s: string): string => '`' + s.replace(/\{([^}]*?)(?:\.\.\.)?\}/g, '<$1>').replace(/\|/g, '\\|') + '`';

export function codeTableLines(codes: readonly DiagnosticCode[]): string[] {
  return ['| code | summary | meaning |', '|---|---|---|', ...codes.map((c) => `| \`${c.code}\` | ${summary(c.summary)} | ${cell(c.description)} |`)];
}

/**
 * The manual page that explains each built-in kind with codes of its own, where its table of codes
 * is generated too (`<!-- generated:codes:<kind> -->`); docs/diagnostics.md links to it.
 */
export const KIND_PAGES: Readonly<Record<string, string>> = {
  sql: 'postgresql.md',
  transaction: 'postgresql.md',
  parallel: 'postgresql.md',
  http: 'http-step.md',
  starlark: 'starlark.md',
  stream: 'streams.md',
  respond: 'steps.md',
};
