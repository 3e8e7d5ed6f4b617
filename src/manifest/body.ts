/**
 * A small schema-driven body decoder: a block body declares which attributes and nested blocks it
 * accepts; `decodeBody` sorts the body's items into them and reports, in one pass, everything that
 * does not fit (unknown or duplicated attributes and blocks, wrong label counts, missing required
 * items) with HCL's wording and a did-you-mean. Value types are checked later by the readers in
 * values.ts, because only the caller knows which type an attribute wants.
 */
import type { Attribute, Block, Body } from '../hcl/index.js';
import { didYouMean, rangeBetween, type Range } from '../diag/index.js';
import type { DecodeScope } from './scope.js';

export interface AttrRule {
  readonly required?: boolean;
}

export interface BlockRule {
  /** Names of the labels, for messages (`["name"]`); its length is the label count. */
  readonly labels?: readonly string[];
  /** When set, any of these label counts is accepted (e.g. `parallel` with or without a name). */
  readonly labelCounts?: readonly number[];
  /** May appear more than once (default: once). */
  readonly multiple?: boolean;
  readonly required?: boolean;
}

export interface BodySchema {
  readonly attributes?: Readonly<Record<string, AttrRule>>;
  readonly blocks?: Readonly<Record<string, BlockRule>>;
}

export interface DecodedBody {
  /** Accepted attributes by name (first definition wins). */
  readonly attrs: ReadonlyMap<string, Attribute>;
  /** Accepted blocks in source order (label counts already checked). */
  readonly blocks: readonly Block[];
  /** How many blocks were reported and dropped (unknown type, bad labels, duplicates). */
  readonly rejectedBlocks: number;
}

export function blocksOf(decoded: DecodedBody, type: string): Block[] {
  return decoded.blocks.filter((b) => b.type === type);
}

/** The `type "label" {` part of a block: where "missing" diagnostics point. */
export function blockHeader(block: Block): Range {
  return rangeBetween(block.typeRange, block.openBraceRange);
}

export function decodeBody(body: Body, schema: BodySchema, scope: DecodeScope, owner?: Block): DecodedBody {
  const attrRules = schema.attributes ?? {};
  const blockRules = schema.blocks ?? {};
  const attrs = new Map<string, Attribute>();
  const blocks: Block[] = [];
  const seenBlocks = new Map<string, Block>();
  let rejectedBlocks = 0;

  for (const item of body.items) {
    if (item.kind === 'Attribute') {
      const rule = Object.hasOwn(attrRules, item.name) ? attrRules[item.name] : undefined;
      if (!rule) {
        if (Object.hasOwn(blockRules, item.name)) {
          scope.error('Unsupported argument', item.nameRange, {
            detail: `An argument named "${item.name}" is not expected here. Did you mean to define a block of type "${item.name}"?`,
          });
        } else {
          const suggestion = didYouMean(item.name, Object.keys(attrRules));
          scope.error('Unsupported argument', item.nameRange, {
            detail: `An argument named "${item.name}" is not expected here.`,
            ...(suggestion ? { suggestion } : {}),
          });
        }
        continue;
      }
      // The parser already drops repeated attributes of a block; this catches the synthetic bodies
      // made from object constructors (`name = { type = string, type = int }`).
      const previous = attrs.get(item.name);
      if (previous) {
        scope.error('Attribute redefined', item.nameRange, {
          detail: `The argument "${item.name}" was already set at ${where(previous.nameRange)}. Each argument may be set only once.`,
        });
        continue;
      }
      attrs.set(item.name, item);
      continue;
    }

    const rule = Object.hasOwn(blockRules, item.type) ? blockRules[item.type] : undefined;
    if (!rule) {
      if (Object.hasOwn(attrRules, item.type)) {
        scope.error('Unsupported block type', item.typeRange, {
          detail: `Blocks of type "${item.type}" are not expected here. Did you mean to define argument "${item.type}"? If so, use the equals sign to assign it a value.`,
        });
      } else {
        const suggestion = didYouMean(item.type, Object.keys(blockRules));
        scope.error('Unsupported block type', item.typeRange, {
          detail: `Blocks of type "${item.type}" are not expected here.`,
          ...(suggestion ? { suggestion } : {}),
        });
      }
      rejectedBlocks++;
      continue;
    }
    if (!labelsOk(item, rule, scope)) {
      rejectedBlocks++;
      continue;
    }
    const previous = seenBlocks.get(item.type);
    if (previous && !rule.multiple) {
      scope.error(`Duplicate ${item.type} block`, item.typeRange, {
        detail: `Only one "${item.type}" block is allowed here. Another was defined at ${where(previous.typeRange)}.`,
      });
      rejectedBlocks++;
      continue;
    }
    seenBlocks.set(item.type, item);
    blocks.push(item);
  }

  const missingAt = owner ? blockHeader(owner) : body.range;
  for (const [name, rule] of Object.entries(attrRules)) {
    if (rule.required && !attrs.has(name)) {
      scope.error('Missing required argument', missingAt, {
        detail: `The argument "${name}" is required, but no definition was found.`,
      });
    }
  }
  for (const [type, rule] of Object.entries(blockRules)) {
    if (rule.required && !seenBlocks.has(type)) {
      scope.error(`Missing ${type} block`, missingAt, { detail: `A "${type}" block is required here.` });
    }
  }
  return { attrs, blocks, rejectedBlocks };
}

export function labelsOk(block: Block, rule: BlockRule, scope: DecodeScope): boolean {
  const names = rule.labels ?? [];
  const counts = rule.labelCounts ?? [names.length];
  const n = block.labels.length;
  if (counts.includes(n)) return true;
  const max = Math.max(...counts);
  if (n > max) {
    scope.error(`Extraneous label for ${block.type}`, block.labelRanges[max] ?? block.typeRange, {
      detail:
        max === 0
          ? `No labels are expected for ${block.type} blocks.`
          : `Only ${max} label${max === 1 ? '' : 's'} (${names.slice(0, max).join(', ')}) ${max === 1 ? 'is' : 'are'} expected for ${block.type} blocks.`,
    });
  } else {
    const want = Math.min(...counts.filter((c) => c > n));
    scope.error(`Missing ${names[n] ?? 'label'} for ${block.type}`, blockHeader(block), {
      detail: `All ${block.type} blocks must have ${want} label${want === 1 ? '' : 's'} (${names.slice(0, want).join(', ')}).`,
    });
  }
  return false;
}

export function where(range: Range): string {
  return `${range.filename}:${range.start.line},${range.start.column}`;
}
