/**
 * Step blocks, decoded through the step kinds the caller injects (src/steps builds them from its one
 * list of definitions): the manifest never imports the step registry, so it stays below it. This
 * file holds what a kind's decoder (`lower`) works with, and the loop that lowers a body's step
 * blocks in order; the pipeline and route decoders, nested `parallel`/`transaction` bodies and the
 * did-you-mean of an unknown step all read the injected table.
 */
import type { Attribute, Block } from '../hcl/index.js';
import { didYouMean, type DiagnosticCode } from '../diag/index.js';
import { labelsOk, type BlockRule } from './body.js';
import type { FileAccess } from './files.js';
import type { ConnectionTable, GuardNames } from './refs.js';
import type { DecodeScope } from './scope.js';
import type { StepSpecBase } from './step-types.js';
import { readChoice } from './values.js';
import type { SchemaResolver } from './type-expr.js';

/**
 * Where a step sits: some kinds are allowed only in some places. A place is a block of the endpoint's
 * own (`ENDPOINT_PLACES`) or the block of a step kind that holds steps (`holdsSteps`), named by that
 * kind (`parallel`, `transaction`): the kinds bring their places, the manifest knows only its own.
 */
export type StepPlace = string;

/** The endpoint's own blocks that hold steps: its pipeline (or a route's body) and `after_response`. */
const ENDPOINT_PLACES: readonly StepPlace[] = ['pipeline', 'after_response'];

/** How one step kind is decoded: the decoding part of its definition in src/steps/<kind>/index.ts. */
export interface StepDecoder<S extends StepSpecBase = StepSpecBase> {
  /** The `kind` of the specs it produces. */
  readonly kind: S['kind'];
  /** Block types that declare the kind, aliases included (`redis` and `kv`), with their label rule. */
  readonly blocks: Readonly<Record<string, BlockRule>>;
  /**
   * Places the kind may not appear, with the reason: `ENDPOINT_PLACES` or kinds that hold steps
   * (checked when the table is built: a name that is no place is a mistake in the definition).
   */
  readonly notIn?: Readonly<Record<StepPlace, string>>;
  /**
   * The kind's block holds steps (`lowerNested`): it is a place, named by its kind, that the steps
   * written in it are lowered in (`LowerContext.place`) and other kinds' `notIn` may name.
   */
  readonly holdsSteps?: boolean;
  /**
   * The kind takes `on_error = "continue"`: its failure becomes its output (`ok`, `error`) and the
   * pipeline goes on. Read here for every such kind, before `lower` sees the block.
   */
  readonly continuable?: boolean;
  /**
   * The kind's own diagnostic codes (src/steps/<kind>/codes.ts), for the problems only it reports:
   * what its block's scope (`cx.scope`, nested scopes included) and its compiler report with one of
   * these summaries gets that code. Codes shared by kinds stay in the central catalogue (src/diag).
   */
  readonly codes?: readonly DiagnosticCode[];
  /** Block -> spec; undefined after reporting why the block cannot be decoded. */
  lower(block: Block, cx: LowerContext): S | undefined;
}

/** The injected step kinds, by block type (aliases included). */
export type StepDecoders = ReadonlyMap<string, StepDecoder>;

/**
 * Indexes decoders by every block type they declare. Throws when a kind's `notIn` names a place that
 * neither the endpoint nor any given kind provides: a definition's mistake, caught at the first boot.
 */
export function stepDecoderTable(decoders: Iterable<StepDecoder>): StepDecoders {
  const table = new Map<string, StepDecoder>();
  for (const d of decoders) for (const type of Object.keys(d.blocks)) table.set(type, d);
  const places = new Set([...ENDPOINT_PLACES, ...[...table.values()].filter((d) => d.holdsSteps).map((d) => d.kind)]);
  for (const d of new Set(table.values())) {
    const unknown = Object.keys(d.notIn ?? {}).find((place) => !places.has(place));
    if (unknown !== undefined) {
      throw new Error(`step kind "${d.kind}": notIn names "${unknown}", which is not a place steps are written in (${[...places].join(', ')})`);
    }
  }
  return table;
}

/** Declared things a block may reference, fixed before any endpoint is decoded, and the step kinds. */
export interface DecodeEnv {
  readonly schemas: SchemaResolver;
  readonly guards: GuardNames;
  readonly connections: ConnectionTable;
  readonly files: FileAccess;
  readonly steps: StepDecoders;
}

export interface LowerContext {
  /** The scope of the step's own block (its segment is already on the path). */
  readonly scope: DecodeScope;
  readonly env: DecodeEnv;
  readonly place: StepPlace;
  /**
   * Lowers the step blocks nested in the step's block (a transaction's or parallel's), in order. Only
   * a kind that `holdsSteps` may, and `place` is its own kind (the place its steps are written in).
   */
  lowerNested(blocks: readonly Block[], place: StepPlace): StepSpecBase[];
}

/** Block rules for a body that holds steps (a pipeline, a route, a parallel). */
export function stepBlockRules(steps: StepDecoders): Record<string, BlockRule> {
  return Object.fromEntries([...steps].map(([type, d]) => [type, d.blocks[type]!]));
}

/**
 * Lowers step blocks in order. Unknown block types and bad labels are reported here too, because
 * nested bodies (parallel) are not pre-checked by a body schema.
 */
export function lowerSteps(
  blocks: readonly Block[],
  scope: DecodeScope,
  env: DecodeEnv,
  place: StepPlace,
  /** Counts blocks that could not be lowered (already reported), so flow checks do not pile on. */
  failures: { count: number } = { count: 0 },
): StepSpecBase[] {
  const out: StepSpecBase[] = [];
  for (const block of blocks) {
    const decoder = env.steps.get(block.type);
    if (!decoder) {
      const types = [...env.steps.keys()];
      const suggestion = didYouMean(block.type, types);
      scope.error('Unsupported block type', block.typeRange, {
        detail: `Blocks of type "${block.type}" are not expected here; steps are ${types.join(', ')}.`,
        ...(suggestion ? { suggestion } : {}),
      });
      failures.count++;
      continue;
    }
    const refused = decoder.notIn?.[place];
    if (refused) {
      scope.error(`Unexpected ${block.type} step`, block.typeRange, { detail: `A ${block.type} step is not allowed here: ${refused}.` });
      failures.count++;
      continue;
    }
    if (!labelsOk(block, decoder.blocks[block.type]!, scope)) {
      failures.count++;
      continue;
    }
    // The kind reports in its block with its own codes; the steps it holds report with theirs.
    const inner = scope.enter(block).forKind(decoder.codes);
    const cx: LowerContext = {
      scope: inner,
      env,
      place,
      lowerNested: (nested, nestedPlace) => {
        // A definition's mistake, not the manifest's: steps are lowered only into a declared place.
        if (!decoder.holdsSteps || nestedPlace !== decoder.kind) {
          throw new Error(`step kind "${decoder.kind}" lowers steps into "${nestedPlace}": only a kind that holdsSteps may, into its own place`);
        }
        return lowerSteps(nested, inner, env, nestedPlace);
      },
    };
    const onError = decoder.continuable ? readOnError(block, inner, place) : undefined;
    const spec = decoder.lower(onError === undefined ? block : onError.block, cx);
    if (spec) out.push(onError?.value === 'continue' ? { ...spec, onError: 'continue' } : spec);
    else failures.count++;
  }
  return out;
}

/**
 * `on_error = "continue" | "fail"` of a kind that takes it, and the block without it (the kind's own
 * decoder never sees the attribute). "fail", the default, is accepted to say so explicitly.
 */
function readOnError(block: Block, scope: DecodeScope, place: StepPlace): { value: 'continue' | 'fail' | undefined; block: Block } | undefined {
  const attr = block.body.items.find((item): item is Attribute => item.kind === 'Attribute' && item.name === 'on_error');
  if (attr === undefined) return undefined;
  const value = readChoice(attr, scope, ON_ERROR);
  if (value === 'continue' && place === 'transaction') {
    scope.error('on_error in a transaction', attr.range, {
      detail:
        'A statement that fails aborts its transaction, so the statements after it could not run: a step with on_error = "continue" belongs outside the transaction.',
    });
  }
  const body = { ...block.body, items: block.body.items.filter((item) => item !== attr) };
  return { value, block: { ...block, body } };
}

const ON_ERROR = ['continue', 'fail'] as const;
