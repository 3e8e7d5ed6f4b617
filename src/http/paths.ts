/**
 * Manifest paths to Fastify (find-my-way) paths.
 *
 * `{name}` becomes `:name`; a trailing catch-all `{name...}` becomes `*`, which Fastify exposes as the
 * parameter `*`, so the handler renames it back to `name`. A literal `:` is doubled, as find-my-way
 * reads a single one as a parameter.
 */
export interface RoutePath {
  /** The path as Fastify registers it. */
  readonly url: string;
  /** The name of a trailing `{name...}` parameter, if any. */
  readonly catchAll?: string;
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)(\.\.\.)?\}/g;

export function toRoutePath(path: string): RoutePath {
  let catchAll: string | undefined;
  const escaped = path.replace(/:/g, '::');
  const url = escaped.replace(PLACEHOLDER, (whole, name: string, dots: string | undefined, offset: number) => {
    if (!dots) return ':' + name;
    // Only a trailing catch-all can be routed; the model rejects others, this keeps the adapter honest.
    if (offset + whole.length !== escaped.length) throw new Error(`catch-all {${name}...} must end the path ${path}`);
    catchAll = name;
    return '*';
  });
  return catchAll === undefined ? { url } : { url, catchAll };
}

/** The path with parameter names erased: two paths of one shape are the same route to the router. */
export function pathShape(path: string): string {
  return path.replace(PLACEHOLDER, (_whole, _name: string, dots: string | undefined) => (dots ? '{...}' : '{}'));
}
