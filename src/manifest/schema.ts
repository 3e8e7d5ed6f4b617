/**
 * `schema "<name>" { description, field "<n>" { ... } ... }` blocks, resolved lazily so that schemas
 * may reference each other in any order and across files. A schema may contain itself (directly or
 * through others, e.g. a tree of nodes): its ObjectTypeSpec is then a cyclic graph, which
 * src/schema emits with $defs. A cycle of *required* fields is an error: no value could satisfy it.
 */
import type { Block } from '../hcl/index.js';
import { type Range, didYouMean } from '../diag/index.js';
import type { FieldSpec, ObjectTypeSpec } from '../schema/index.js';
import { blocksOf, decodeBody, where, type BodySchema } from './body.js';
import { decodeField, type FieldOptions } from './field.js';
import type { DecodeScope } from './scope.js';
import type { SchemaResolver } from './type-expr.js';
import { readString } from './values.js';

const SCHEMA_BODY: BodySchema = {
  attributes: { description: {} },
  blocks: { field: { labels: ['name'], multiple: true } },
};

interface Pending {
  readonly block: Block;
  readonly scope: DecodeScope;
}

export class SchemaTable implements SchemaResolver {
  private readonly pending = new Map<string, Pending>();
  private readonly resolved = new Map<string, ObjectTypeSpec>();

  /** Registers a top-level `schema` block (label count already checked). */
  add(block: Block, scope: DecodeScope): void {
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

  resolve(name: string, range: Range, scope: DecodeScope): ObjectTypeSpec | undefined {
    const pending = this.pending.get(name);
    if (!pending) {
      const suggestion = didYouMean(name, this.pending.keys());
      scope.error('Reference to undeclared schema', range, {
        detail: `No schema named "${name}" is declared.`,
        ...(suggestion ? { suggestion: `schema.${suggestion}` } : {}),
      });
      return undefined;
    }
    let spec = this.resolved.get(name);
    if (!spec) {
      // Registered before its fields are decoded, so a schema may contain itself (a tree of nodes):
      // the reference is the same object, and the JSON Schema compiler emits it through $defs.
      const fields: FieldSpec[] = [];
      spec = { kind: 'object', name, fields };
      this.resolved.set(name, spec);
      this.decode(spec, fields, pending);
    }
    return spec;
  }

  /** Decodes every schema (those never referenced included) and returns them by name. */
  all(): Map<string, ObjectTypeSpec> {
    const out = new Map<string, ObjectTypeSpec>();
    for (const [name, { block, scope }] of this.pending) out.set(name, this.resolve(name, block.labelRanges[0]!, scope)!);
    for (const [name, spec] of out) this.checkSatisfiable(name, spec);
    return out;
  }

  private decode(spec: { -readonly [K in keyof ObjectTypeSpec]: ObjectTypeSpec[K] }, fields: FieldSpec[], { block, scope }: Pending): void {
    const decoded = decodeBody(block.body, SCHEMA_BODY, scope, block);
    const description = readString(decoded.attrs.get('description'), scope);
    if (description !== undefined) spec.description = description;
    fields.push(...decodeFieldBlocks(blocksOf(decoded, 'field'), scope, this));
    if (blocksOf(decoded, 'field').length === 0) {
      scope.warning('Empty schema', block.labelRanges[0], { detail: `Schema "${spec.name}" declares no field.` });
    }
  }

  /**
   * A schema whose required fields lead back to itself without passing a list or map can hold no
   * finite value: every request would fail validation. Optional fields, lists and maps end the chain.
   */
  private checkSatisfiable(name: string, spec: ObjectTypeSpec): void {
    // Breadth first over required object fields, each schema once (a path-by-path walk is
    // exponential when schemas share sub-schemas): the first way back to `spec` is the shortest.
    const requiredObjects = (o: ObjectTypeSpec): ObjectTypeSpec[] =>
      o.fields.filter((f) => f.required && f.type.kind === 'object').map((f) => f.type as ObjectTypeSpec);
    const parent = new Map<ObjectTypeSpec, ObjectTypeSpec>();
    const queue: ObjectTypeSpec[] = [spec];
    let last: ObjectTypeSpec | undefined;
    for (let i = 0; i < queue.length && !last; i++) {
      for (const next of requiredObjects(queue[i]!)) {
        if (next === spec) {
          last = queue[i]!;
          break;
        }
        if (parent.has(next)) continue;
        parent.set(next, queue[i]!);
        queue.push(next);
      }
    }
    const chain: string[] = [];
    for (let o = last; o !== undefined && o !== spec; o = parent.get(o)) chain.unshift(o.name ?? '');
    chain.unshift(name);
    if (last) {
      const { block, scope } = this.pending.get(name)!;
      scope.error('Schema can never be satisfied', block.labelRanges[0], {
        detail: `Schema "${name}" requires itself through required fields (${[...chain, name].join(' -> ')}), so no finite value is valid. Make a field on that chain optional, or a list.`,
      });
    }
  }
}

/** `field "<n>" { ... }` blocks -> FieldSpecs, reporting duplicate names. */
export function decodeFieldBlocks(
  blocks: readonly Block[],
  scope: DecodeScope,
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
