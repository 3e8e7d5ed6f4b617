/**
 * An http step's `url`, compiled as a URL (src/expr url.ts, issue 35): each computed value of a
 * template is encoded at boot for the part it lands in (a path segment, a query value). Reported: a
 * warning where request data lands before the path, or makes the whole URL (a client could choose
 * the host); an error for a literal `.` or `..` path segment (an upstream would resolve it, and
 * request.ts's run-time check would refuse every request).
 */
import type { Attribute } from '../../hcl/index.js';
import { compileUrlExpression, DEFAULT_ROOTS, type Reference, type UrlShape } from '../../expr/index.js';
import { type DecodeScope, type Expr, evaluateCompiled } from '../../manifest/index.js';

export interface UrlTemplate {
  readonly url: Expr;
  /** A value computed per request lands in the path: its segments are checked per request (request.ts). */
  readonly pathFromValues: boolean;
}

export function readUrl(attr: Attribute | undefined, scope: DecodeScope): UrlTemplate | undefined {
  if (!attr) return undefined;
  const { compiled, diagnostics, shape } = compileUrlExpression(attr.expr, { roots: DEFAULT_ROOTS });
  scope.adopt(diagnostics);
  if (diagnostics.some((d) => d.severity === 'error')) return { url: compiled, pathFromValues: false };
  if (compiled.constant) {
    const v = evaluateCompiled(compiled, scope);
    if (!v.ok) return undefined;
    if (typeof v.value !== 'string') {
      scope.error('Incorrect attribute value type', attr.expr.range, { detail: `Inappropriate value for attribute "url": a string is required.` });
      return undefined;
    }
    // A constant URL is checked as a whole when the step compiles (node.ts).
    return { url: compiled, pathFromValues: false };
  }
  report(shape, scope);
  return { url: compiled, pathFromValues: shape.sites.some((site) => site.place === 'path') };
}

function report(shape: UrlShape, scope: DecodeScope): void {
  for (const site of shape.sites) {
    if (site.encoding !== 'none' || !readsRequest(site.references)) continue;
    scope.warning('Request data in an http step url', site.range, {
      detail:
        'This value from the request lands in the scheme, host or port of the URL, where no encoding can make it safe: a client could send the call to a host of its choosing. Take the host from the manifest (a constant or env()) and put request data in the path or query, where svc encodes it.',
    });
  }
  for (const computed of shape.computed) {
    if (!readsRequest(computed.references)) continue;
    scope.warning('Request data in an http step url', computed.range, {
      detail:
        'The whole URL is computed from request data by an expression, so svc cannot encode its parts: a client could choose the host or the path. Write the url as a template ("https://host/items/${ctx.request.path.id}"), whose values svc encodes as one path segment or query value each.',
    });
  }
  for (const range of shape.dotSegments) {
    scope.error('Invalid http step url', range, {
      detail: 'The url template has a "." or ".." path segment, which the upstream would resolve to another path: write the path without it.',
    });
  }
}

/** `ctx.request...`, or a reference to `ctx` that could be it (`ctx`, `ctx[x]`). */
function readsRequest(references: readonly Reference[]): boolean {
  return references.some((r) => r.root === 'ctx' && (r.path.length === 0 || r.path[0] === 'request' || r.path[0] === null));
}
