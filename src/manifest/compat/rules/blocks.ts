/**
 * Renamed and dropped arguments of hclapi's blocks: `catch { abort_with_status }`, a connection's
 * `pool { max_open_conns | max_open | size, max_idle(_conns), (conn_)max_lifetime }` and the
 * server's `read_timeout`, `write_timeout`, `idle_timeout`.
 */
import type { Attribute, Block, File } from '../../../hcl/index.js';
import { alias, replace, Sources, type Finding } from '../finding.js';
import { blocksUnder } from '../walk.js';

/** svc's argument for an hclapi one, or why it has none (the argument is then left out). */
type Mapping = { readonly svc: string; readonly differs?: string } | { readonly dropped: string };

const POOL: Readonly<Record<string, Mapping>> = {
  max_open_conns: { svc: 'max' },
  max_open: { svc: 'max' },
  size: { svc: 'max' },
  max_idle_conns: { dropped: "svc's pool keeps idle connections up to max until idle_timeout; it has no separate idle count" },
  max_idle: { dropped: "svc's pool keeps idle connections up to max until idle_timeout; it has no separate idle count" },
  conn_max_lifetime: { dropped: "svc's pool has no maximum connection age; a connection lives until idle_timeout or an error" },
  max_lifetime: { dropped: "svc's pool has no maximum connection age; a connection lives until idle_timeout or an error" },
};

const SERVER: Readonly<Record<string, Mapping>> = {
  write_timeout: {
    svc: 'request_timeout',
    differs: 'svc bounds receiving the request (408) and running its pipeline (504) with it, not the writing of the answer',
  },
  read_timeout: { dropped: 'svc bounds receiving a request with request_timeout (408); a separate read bound is not settable' },
  idle_timeout: { dropped: "svc keeps Node.js's keep-alive time-out for idle connections; it is not settable" },
};

const CATCH: Readonly<Record<string, Mapping>> = { abort_with_status: { svc: 'status' } };

export function renamedArguments(files: readonly File[]): Finding[] {
  const src = new Sources(files);
  const out: Finding[] = [];
  for (const file of files) {
    for (const { block, parents } of blocksUnder(file.body)) {
      const path = [...parents, block].map(label);
      const table = tableOf(block, parents);
      if (!table) continue;
      const own = new Set(block.body.items.filter((i): i is Attribute => i.kind === 'Attribute').map((a) => a.name));
      for (const item of block.body.items) {
        if (item.kind !== 'Attribute') continue;
        const m = table[item.name];
        if (!m) continue;
        if ('dropped' in m) {
          out.push(
            alias(
              'hclapi argument without an svc equivalent',
              item.nameRange,
              `"${item.name}" is accepted and has no effect: ${m.dropped}. svc fmt --fix removes it.`,
              [src.remove(item)],
              path,
            ),
          );
        } else if (own.has(m.svc)) {
          out.push(
            alias(
              'hclapi argument without an svc equivalent',
              item.nameRange,
              `"${item.name}" is svc's "${m.svc}", which this block sets too; the "${m.svc}" given is used. svc fmt --fix removes "${item.name}".`,
              [src.remove(item)],
              path,
            ),
          );
        } else {
          out.push(
            alias(
              'hclapi argument spelling',
              item.nameRange,
              `"${item.name}" is spelled "${m.svc}" in svc${m.differs ? `; what differs: ${m.differs}` : ''}.`,
              [replace(item.nameRange, m.svc)],
              path,
            ),
          );
        }
      }
    }
  }
  return out;
}

function tableOf(block: Block, parents: readonly Block[]): Readonly<Record<string, Mapping>> | undefined {
  const parent = parents.at(-1);
  if (block.type === 'pool' && parent?.type === 'connection' && parents.length === 1) return POOL;
  if (block.type === 'server' && parents.length === 0) return SERVER;
  if (block.type === 'catch') return CATCH;
  return undefined;
}

export function label(b: Block): string {
  return [b.type, ...b.labels.map((l) => `"${l}"`)].join(' ');
}
