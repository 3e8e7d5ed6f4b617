/**
 * hclapi's `api { prefix = "/api/v1", auth = [auth.x] }`: a path prefix and default guards for every
 * endpoint. svc has no such block: the prefix is written into every endpoint's path, and the guards
 * are the server's `auth` (the default of every endpoint without its own `auth`, as in hclapi, where
 * `auth = []` makes an endpoint public too).
 */
import type { Attribute, File } from '../../../hcl/index.js';
import type { Edit } from '../edit.js';
import { alias, insertAt, replace, Sources, type Finding } from '../finding.js';
import { literalString, topBlocks } from '../walk.js';

const ROUTE_BLOCKS = new Set(['endpoint', 'route']);

export function apiBlock(files: readonly File[]): Finding[] {
  const src = new Sources(files);
  const apis = [...topBlocks(files)].filter(({ block }) => block.type === 'api' && block.labels.length === 0);
  const first = apis[0];
  if (!first) return [];
  const out: Finding[] = [];
  const attrs = new Map(first.block.body.items.filter((i): i is Attribute => i.kind === 'Attribute').map((a) => [a.name, a]));
  const edits: Edit[] = [];
  const said: string[] = [];

  const prefixAttr = attrs.get('prefix');
  const prefix = prefixAttr ? literalString(prefixAttr.expr) : undefined;
  if (prefixAttr && prefix === undefined) {
    out.push({
      diagnostic: {
        severity: 'error',
        summary: 'Unsupported hclapi construct',
        subject: prefixAttr.expr.range,
        detail: 'The prefix of an hclapi api block must be a literal string such as "/api/v1".',
      },
      edits: [],
    });
  }
  const cleanPrefix = prefix?.replace(/\/+$/, '');
  if (cleanPrefix) {
    for (const { block } of topBlocks(files)) {
      if (!ROUTE_BLOCKS.has(block.type) || block.labels.length === 0) continue;
      const m = /^(\s*\S+\s+)(\/.*)$/.exec(block.labels[0]!);
      if (!m) continue;
      edits.push(replace(block.labelRanges[0]!, JSON.stringify(m[1] + cleanPrefix + (m[2] === '/' ? '' : m[2]))));
    }
    said.push(`every endpoint's path starts with "${cleanPrefix}"`);
  }

  const authAttr = attrs.get('auth');
  const server = [...topBlocks(files)].find(({ block }) => block.type === 'server');
  const serverAuth = server?.block.body.items.find((i) => i.kind === 'Attribute' && i.name === 'auth');
  let replacement = '';
  if (authAttr) {
    const text = src.text(authAttr.expr.range);
    if (serverAuth) said.push('its auth is ignored: the server block sets auth already, and that one is used');
    else if (server) {
      edits.push(insertAt(server.block.range.filename, server.block.openBraceRange.end.byte, `\n  auth = ${text}\n`));
      said.push(`its auth is the server block's auth = ${text}`);
    } else {
      replacement = `server {\n  auth = ${text}\n}`;
      said.push(`its auth is a server block's auth = ${text}`);
    }
  }
  for (const [name, a] of attrs) {
    if (name !== 'prefix' && name !== 'auth') said.push(`"${a.name}" is not known and is left out`);
  }
  edits.push(replacement ? replace(first.block.range, replacement) : src.remove(first.block));
  out.push(alias('hclapi api block', first.block.typeRange, `svc has no api block: ${said.join('; ')}. svc fmt --fix writes it so.`, edits));
  for (const { block } of apis.slice(1)) {
    out.push({
      diagnostic: {
        severity: 'error',
        summary: 'Duplicate api block',
        subject: block.typeRange,
        detail: `Only one api block is allowed; the first is in ${first.block.range.filename}.`,
      },
      edits: [src.remove(block)],
    });
  }
  return out;
}
