/**
 * The attributes and nested blocks a decoder accepts, read from its source: the `BodySchema`
 * constants (`const HTTP_BODY: BodySchema = { attributes: {...}, blocks: {...} }`) that every
 * decoder hands to `decodeBody`. They are module-private by design, so the manual's tables are
 * checked against the text of the declarations rather than an export made for the test. The
 * literals are plain data (keys, `{}` rules, identifiers), which a bracket-aware scan reads exactly.
 */
import { readFileSync } from 'node:fs';

export interface SchemaKeys {
  readonly attributes: readonly { readonly name: string; readonly required: boolean }[];
  readonly blocks: readonly string[];
}

/** The source without comments, so that a `// blocks: {...}` note never reads as code. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"])\/\/.*$/gm, '$1');
}

/** The text of the bracketed group opening at `open` (`{`), brackets balanced, strings skipped. */
function group(text: string, open: number): string {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') {
      depth--;
      if (depth === 0) return text.slice(open, i + 1);
    }
  }
  throw new Error(`unbalanced brackets from offset ${open}`);
}

/** The top-level entries of an object literal's text (`{ a: x, b: { ... } }`), as [key, value] pairs. */
function entries(literal: string): [string, string][] {
  const body = literal.slice(1, -1);
  const out: [string, string][] = [];
  let depth = 0;
  let start = 0;
  const flush = (end: number): void => {
    const part = body.slice(start, end).trim();
    if (part === '') return;
    const colon = part.indexOf(':');
    const key = (colon === -1 ? part : part.slice(0, colon)).trim().replace(/^['"]|['"]$/g, '');
    out.push([key, colon === -1 ? key : part.slice(colon + 1).trim()]);
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      flush(i);
      start = i + 1;
    }
  }
  flush(body.length);
  return out;
}

/** The keys of the `BodySchema` constant `name` declared in `file`, or undefined when it declares none. */
export function schemaKeys(file: string, name: string): SchemaKeys | undefined {
  const source = withoutComments(readFileSync(file, 'utf8'));
  const at = new RegExp(String.raw`\bconst\s+${name}\s*:\s*BodySchema\s*=\s*\{`).exec(source);
  if (!at) return undefined;
  const schema = Object.fromEntries(entries(group(source, at.index + at[0].length - 1)));
  const objectKeys = (value: string | undefined): [string, string][] => (value?.startsWith('{') ? entries(value) : []);
  return {
    attributes: objectKeys(schema.attributes).map(([key, rule]) => ({ name: key, required: /\brequired\s*:\s*true\b/.test(rule) })),
    blocks: objectKeys(schema.blocks).map(([key]) => key),
  };
}

/** The name of the schema a decoder applies to the block itself: `decodeBody(block.body, NAME, ...)`. */
export function decodedSchemaName(file: string): string | undefined {
  return /\bdecodeBody\(\s*block\.body\s*,\s*([A-Z][A-Z0-9_]*)\b/.exec(withoutComments(readFileSync(file, 'utf8')))?.[1];
}
