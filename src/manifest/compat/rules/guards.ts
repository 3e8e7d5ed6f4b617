/**
 * hclapi's `auth "x" { type = "jwt", secret = ..., header = "Authorization", prefix = "Bearer " }`:
 * svc's bearer guard with a jwt block (`type = "bearer"`, `jwt { secret = ... }`), which reads
 * `Authorization: Bearer <token>` only; another header or prefix is refused, precisely.
 */
import type { Attribute, File } from '../../../hcl/index.js';
import type { Edit } from '../edit.js';
import { alias, replace, Sources, type Finding } from '../finding.js';
import { literalString, topBlocks } from '../walk.js';

export function jwtGuards(files: readonly File[]): Finding[] {
  const src = new Sources(files);
  const out: Finding[] = [];
  for (const { block } of topBlocks(files)) {
    if (block.type !== 'auth') continue;
    const attrs = new Map(block.body.items.filter((i): i is Attribute => i.kind === 'Attribute').map((a) => [a.name, a]));
    const type = attrs.get('type');
    if (!type || literalString(type.expr) !== 'jwt') continue;
    const path = [`auth "${block.labels[0] ?? ''}"`];
    const edits: Edit[] = [replace(type.expr.range, '"bearer"')];
    const header = attrs.get('header');
    const prefix = attrs.get('prefix');
    if (header && literalString(header.expr)?.toLowerCase() !== 'authorization') {
      out.push({
        diagnostic: {
          severity: 'error',
          summary: 'Unsupported hclapi construct',
          subject: header.expr.range,
          path,
          detail: 'svc reads a JWT from the Authorization header only (Authorization: Bearer <token>); another header cannot carry it.',
        },
        edits: [],
      });
    }
    if (prefix && literalString(prefix.expr)?.trim().toLowerCase() !== 'bearer') {
      out.push({
        diagnostic: {
          severity: 'error',
          summary: 'Unsupported hclapi construct',
          subject: prefix.expr.range,
          path,
          detail: 'svc reads a JWT after the "Bearer " scheme of the Authorization header only; another prefix cannot be set.',
        },
        edits: [],
      });
    }
    if (header) edits.push(src.remove(header));
    if (prefix) edits.push(src.remove(prefix));
    const moved = ['secret', 'jwks_url', 'issuer', 'audience', 'algorithms', 'required_claims'].flatMap((n) => (attrs.get(n) ? [attrs.get(n)!] : []));
    const indent = moved[0] ? src.indent(moved[0].range) || '  ' : '  ';
    const body = moved.map((a) => `${indent}  ${a.name} = ${src.text(a.expr.range)}`).join('\n');
    for (const [i, a] of moved.entries()) edits.push(i === 0 ? replace(a.range, `jwt {\n${body}\n${indent}}`) : src.remove(a));
    out.push(
      alias(
        'hclapi jwt guard',
        type.expr.range,
        `A "jwt" guard is svc's "bearer" guard with a jwt block (type = "bearer", jwt { secret = ... }), reading Authorization: Bearer <token>; the token's claims are ctx.auth.claims as in hclapi.`,
        edits,
        path,
      ),
    );
  }
  return out;
}
