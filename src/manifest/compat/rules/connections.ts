/**
 * hclapi's connection spellings onto svc's kinds: `connection "cockroachdb"` is a PostgreSQL
 * connection (CockroachDB speaks its protocol), and a literal `source` in the Go drivers' forms
 * becomes the URL svc's connector reads: `file:app.db?mode=rwc`, `/var/data/app.db` and `:memory:`
 * for sqlite, `user:pass@tcp(host:3306)/db?parseTime=true` for mysql, `host=... dbname=...` for
 * postgres.
 */
import type { Attribute, File } from '../../../hcl/index.js';
import { alias, replace, type Finding } from '../finding.js';
import { label } from './blocks.js';
import { expressionsUnder, literalString, topBlocks } from '../walk.js';

export function connections(files: readonly File[]): Finding[] {
  const out: Finding[] = [];
  const renamed = new Set<string>();
  for (const { block } of topBlocks(files)) {
    if (block.type !== 'connection' || block.labels.length !== 2) continue;
    const kind = block.labels[0]!;
    const path = [label(block)];
    if (kind === 'cockroachdb') {
      renamed.add(block.labels[1]!);
      out.push(
        alias(
          'hclapi connection spelling',
          block.labelRanges[0]!,
          'A cockroachdb connection is svc\'s connection "postgres" (CockroachDB speaks the PostgreSQL protocol); references to it are connection.postgres.<name>.',
          [replace(block.labelRanges[0]!, '"postgres"')],
          path,
        ),
      );
    }
    const source = block.body.items.find((i): i is Attribute => i.kind === 'Attribute' && (i.name === 'source' || i.name === 'url'));
    const text = source ? literalString(source.expr) : undefined;
    if (!source || text === undefined) continue;
    const url = svcUrl(kind === 'cockroachdb' ? 'postgres' : kind, text);
    if (url && url.to !== text) {
      out.push(
        alias(
          'hclapi connection spelling',
          source.expr.range,
          `svc reads this ${kind} connection as the URL "${redact(url.to)}"${url.dropped ? `; ${url.dropped}` : ''}.`,
          [replace(source.expr.range, JSON.stringify(url.to))],
          path,
        ),
      );
    }
  }
  if (renamed.size > 0) {
    for (const { block } of topBlocks(files)) {
      for (const e of expressionsUnder(block.body)) {
        if (e.kind !== 'ScopeTraversal' || e.root !== 'connection') continue;
        const [k, name] = e.steps;
        if (k?.kind === 'Attr' && k.name === 'cockroachdb' && name?.kind === 'Attr' && renamed.has(name.name)) {
          out.push(alias('hclapi connection spelling', k.range, `The connection is connection.postgres.${name.name} in svc.`, [replace(k.range, '.postgres')]));
        }
      }
    }
  }
  return out;
}

interface Url {
  readonly to: string;
  readonly dropped?: string;
}

function svcUrl(kind: string, text: string): Url | undefined {
  if (kind === 'sqlite') {
    if (text.startsWith('sqlite:')) return undefined;
    if (text === ':memory:') return { to: 'sqlite::memory:' };
    const m = /^file:([^?]*)(\?.*)?$/.exec(text);
    if (m) return { to: `sqlite:${m[1]}`, ...(m[2] ? { dropped: `the Go driver's parameters ${m[2]} are left out (svc creates the file when missing)` } : {}) };
    if (/^[./\w]/.test(text) && !text.includes('://')) return { to: `sqlite:${text}` };
    return undefined;
  }
  if (kind === 'mysql') {
    const m = /^(?:mysql:\/\/)?(?:([^@/]*)@)?tcp\(([^)]+)\)\/([^?]*)(\?.*)?$/.exec(text);
    if (!m) return undefined;
    return {
      to: `mysql://${m[1] ? m[1] + '@' : ''}${m[2]}/${m[3]}`,
      ...(m[4] ? { dropped: `the Go driver's parameters ${m[4]} are left out (svc's mysql connector returns dates as ISO 8601 text)` } : {}),
    };
  }
  if (kind === 'postgres' && /^\s*\w+=/.test(text) && !text.includes('://')) {
    const kv = new Map([...text.matchAll(/(\w+)=('[^']*'|\S*)/g)].map((m) => [m[1]!, m[2]!.replace(/^'|'$/g, '')]));
    const user = kv.get('user');
    const password = kv.get('password');
    const auth = user ? encodeURIComponent(user) + (password ? ':' + encodeURIComponent(password) : '') + '@' : '';
    const params = [...kv].filter(([k]) => !['host', 'port', 'dbname', 'user', 'password'].includes(k)).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
    return {
      to: `postgres://${auth}${kv.get('host') ?? 'localhost'}:${kv.get('port') ?? '5432'}/${kv.get('dbname') ?? ''}${params.length ? '?' + params.join('&') : ''}`,
    };
  }
  return undefined;
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
