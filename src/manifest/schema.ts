/**
 * `schema "<name>" { description, field "<n>" { ... } ... }` blocks, resolved lazily so that schemas
 * may reference each other in any order and across files. A schema that contains itself (directly
 * or through others) is a boot error: the field specs are plain immutable trees.
 */
import type { Block } from '../hcl/ast.js';
import type { Range } from '../diag/range.js';
import { didYouMean } from '../diag/suggest.js';
import type { FieldSpec, ObjectTypeSpec } from '../schema/field.js';
import { blocksOf, decodeBody, where, type BodySchema } from './body.js';
import { decodeField, type FieldOptions } from './field.js';
import type { Scope } from './scope.js';
import type { SchemaResolver } from './type-expr.js';
import { readString } from './values.js';

const SCHEMA_BODY: BodySchema = {
  attributes: { description: {} },
  blocks: { field: { labels: ['name'], multiple: true } },
};

interface Pending {
  readonly block: Block;
  readonly scope: Scope;
}

export class SchemaTable implements SchemaResolver {
  private readonly pending = new Map<string, Pending>();
  private readonly resolved = new Map<string, ObjectTypeSpec | undefined>();
  private readonly inProgress = new Set<string>();

  /** Registers a top-level `schema` block (label count already checked). */
  add(block: Block, scope: Scope): void {
    const name = block.labels[0]!;
    const previous = this.pending.get(name);
    if (previous) {
      scope.enter(block).error('Duplicate schema', block.labelRanges[0], {
        detail: `A schema named "${name}" was already declared at ${where(previous.block.labelRanges[0]!)}.`,
      });
      return;
    }
    this.pending.set(name, { block, scope: scope.enter(block) });
  }

  names(): readonly string[] {
    return [...this.pending.keys()];
  }

  resolve(name: string, range: Range, scope: Scope): ObjectTypeSpec | undefined {
    if (!this.pending.has(name)) {
      const suggestion = didYouMean(name, this.pending.keys());
      scope.error('Reference to undeclared schema', range, {
        detail: `No schema named "${name}" is declared.`,
        ...(suggestion ? { suggestion: `schema.${suggestion}` } : {}),
      });
      return undefined;
    }
    if (this.inProgress.has(name)) {
      scope.error('Recursive schema', range, {
        detail: `Schema "${name}" contains itself (${[...this.inProgress, name].join(' -> ')}); recursive types are not supported.`,
      });
      return undefined;
    }
    if (!this.resolved.has(name)) this.resolved.set(name, this.decode(name, this.pending.get(name)!));
    return this.resolved.get(name);
  }

  /** Decodes every schema (those never referenced included) and returns them by name. */
  all(): Map<string, ObjectTypeSpec> {
    const out = new Map<string, ObjectTypeSpec>();
    for (const [name, { block }] of this.pending) {
      const spec = this.resolve(name, block.labelRanges[0]!, this.pending.get(name)!.scope);
      if (spec) out.set(name, spec);
    }
    return out;
  }

  private decode(name: string, { block, scope }: Pending): ObjectTypeSpec | undefined {
    this.inProgress.add(name);
    try {
      const decoded = decodeBody(block.body, SCHEMA_BODY, scope, block);
      const fields = decodeFieldBlocks(blocksOf(decoded, 'field'), scope, this);
      const description = readString(decoded.attrs.get('description'), scope);
      if (fields.length === 0 && blocksOf(decoded, 'field').length === 0) {
        scope.warning('Empty schema', block.labelRanges[0], { detail: `Schema "${name}" declares no field.` });
      }
      return { kind: 'object', name, fields, ...(description !== undefined ? { description } : {}) };
    } finally {
      this.inProgress.delete(name);
    }
  }
}

/** `field "<n>" { ... }` blocks -> FieldSpecs, reporting duplicate names. */
export function decodeFieldBlocks(
  blocks: readonly Block[],
  scope: Scope,
  schemas: SchemaResolver,
  options: FieldOptions & { readonly lowerCase?: boolean } = {},
): FieldSpec[] {
  const out: FieldSpec[] = [];
  const seen = new Map<string, Block>();
  for (const b of blocks) {
    const raw = b.labels[0]!;
    const name = options.lowerCase ? raw.toLowerCase() : raw;
    const previous = seen.get(name);
    if (previous) {
      scope.error('Duplicate field', b.labelRanges[0], {
        detail: `A field named "${name}" was already declared at ${where(previous.labelRanges[0]!)}.`,
      });
      continue;
    }
    seen.set(name, b);
    const f = decodeField(name, b.body, b.labelRanges[0]!, scope.enter(b), schemas, options);
    if (f) out.push(f);
  }
  return out;
}
