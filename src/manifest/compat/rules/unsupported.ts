/**
 * What hclapi has and svc cannot provide, said precisely: its `go` step (a function registered in the
 * Go program that embeds hclapi) and the SQL engines svc has no connector for. A top-level
 * `problem { type_prefix }` block is accepted and has no effect (svc's problem types are its own).
 */
import type { File } from '../../../hcl/index.js';
import { alias, Sources, type Finding } from '../finding.js';
import { label } from './blocks.js';
import { blocksUnder, topBlocks } from '../walk.js';

/** Engines hclapi connects to and svc does not; cockroachdb speaks PostgreSQL's protocol (see connections.ts). */
const NO_CONNECTOR: Readonly<Record<string, string>> = {
  sqlserver: 'Microsoft SQL Server',
  clickhouse: 'ClickHouse',
  oracle: 'Oracle',
  duckdb: 'DuckDB',
};

export function unsupported(files: readonly File[]): Finding[] {
  const src = new Sources(files);
  const out: Finding[] = [];
  for (const file of files) {
    for (const { block, parents } of blocksUnder(file.body)) {
      if (block.type === 'go' && parents.some((p) => p.type === 'pipeline' || p.type === 'after_response')) {
        out.push({
          diagnostic: {
            severity: 'error',
            summary: 'Unsupported hclapi construct',
            subject: block.typeRange,
            path: [...parents, block].map(label),
            detail:
              "hclapi's go step calls a function registered in a Go program; svc cannot run Go. Embed svc in a Node.js program and give the step as a step kind of your own (defineStep, docs/embedding.md), or write it as a starlark or http step.",
          },
          // Left out of what is decoded, so the step is not reported a second time as unknown.
          edits: [src.remove(block)],
        });
      }
    }
  }
  for (const { block } of topBlocks(files)) {
    if (block.type === 'connection' && block.labels[0] && NO_CONNECTOR[block.labels[0]]) {
      out.push({
        diagnostic: {
          severity: 'error',
          summary: 'Unsupported hclapi construct',
          subject: block.labelRanges[0],
          path: [label(block)],
          detail: `svc has no connector for ${NO_CONNECTOR[block.labels[0]]} (hclapi's "${block.labels[0]}" driver); its connection kinds are postgres, sqlite, mysql and redis.`,
        },
        edits: [],
      });
    }
    if (block.type === 'problem' && block.labels.length === 0) {
      out.push(
        alias(
          'hclapi problem block',
          block.typeRange,
          "svc's problem types are urn:svc:error:<slug> (or what a problem() body's type says); a type_prefix cannot be set, so the block has no effect. svc fmt --fix removes it.",
          [src.remove(block)],
        ),
      );
    }
  }
  return out;
}
