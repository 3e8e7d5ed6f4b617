/**
 * A step kind of an embedding program's own (`defineStep`): the small, stable shape the public API
 * (src/api) offers, turned into a full step kind definition by ./index.ts. Checked when defined, so
 * a mistake in the program (a bad name, an attribute named like a reserved one, a malformed code)
 * fails at once, with the definition named, instead of at some manifest's boot.
 */
import type { DiagnosticCode } from '../../diag/index.js';

/** The type an attribute's value must have; `any` takes every value. `int` is a whole number. */
export type StepAttributeType = 'string' | 'number' | 'int' | 'bool' | 'list' | 'map' | 'any';

export interface StepAttribute {
  /** Checked at boot when the expression is a constant, and on every request; default `any`. */
  readonly type?: StepAttributeType;
  /** A block without it is a boot error ("Missing required argument"). */
  readonly required?: boolean;
}

/** The TypeScript type of an attribute's evaluated value. */
export type StepAttributeValue<T extends StepAttributeType | undefined> = T extends 'string'
  ? string
  : T extends 'number' | 'int'
    ? number
    : T extends 'bool'
      ? boolean
      : T extends 'list'
        ? unknown[]
        : T extends 'map'
          ? Record<string, unknown>
          : unknown;

/** What `run` receives: every declared attribute evaluated for this request (absent optional ones undefined). */
export type StepAttributeValues<A extends Readonly<Record<string, StepAttribute>>> = {
  -readonly [K in keyof A]: A[K]['required'] extends true ? StepAttributeValue<A[K]['type']> : StepAttributeValue<A[K]['type']> | undefined;
};

/**
 * A problem a step's `check` reports at boot, with its stable code: `SVC_STEP_<NAME>_<WHAT>`, NAME
 * the step's name in upper case (`geocode` -> `SVC_STEP_GEOCODE_UNKNOWN_CITY`), so that it is in
 * svc's scheme and no two kinds' codes meet. The summary is what `check` reports with (a title,
 * without a full stop); the description says in one sentence what the problem is.
 */
export type StepCode = DiagnosticCode;

/** How `check` reports: a summary of one of the step's `codes`, said at an attribute or at the block. */
export interface StepCheckReport {
  error(summary: string, options?: StepCheckReportOptions): void;
  warning(summary: string, options?: StepCheckReportOptions): void;
}

export interface StepCheckReportOptions {
  /** The sentence that says what is wrong with this block, and how to mend it. */
  readonly detail?: string;
  /** The attribute the problem is in; the block's label when not given. */
  readonly attribute?: string;
}

export interface StepRunContext {
  /**
   * Aborted when the step's work is no longer wanted: its `timeout`, the request's time-out, a
   * failure elsewhere in the pipeline, the client gone, or (for a stream) the stream's end.
   */
  readonly signal: AbortSignal;
  /** The step's label in the manifest (`geocode "home"` -> `home`). */
  readonly step: string;
}

export interface StepOptions<A extends Readonly<Record<string, StepAttribute>>> {
  /** The block type in a manifest (`geocode "home" { ... }`): lowercase letters, digits and `_`. */
  readonly name: string;
  /** The attributes a block takes (`timeout` and `on_error` are svc's own on every custom step). */
  readonly attributes?: A;
  /**
   * The members of `steps.<label>` the step offers, checked at boot like a built-in kind's
   * (`steps.home.lat`): their names, or each name with its JSON Schema, which the OpenAPI document
   * then gives a response that reads it. Absent, any member may be read. A streaming step offers `stream`.
   */
  readonly outputs?: readonly string[] | Readonly<Record<string, JsonSchema>>;
  /**
   * `true`: `run` returns an async iterable (or an iterable) whose items a `stream` step sends
   * (`source = steps.<label>.stream`), pulled one at a time as the client reads.
   */
  readonly stream?: boolean;
  /** A streaming step's item, as a JSON Schema: the OpenAPI document's schema of the stream's items. */
  readonly items?: JsonSchema;
  /**
   * The statuses a failure of the step can answer with besides 500, which the OpenAPI document lists:
   * `[504]` unless given (the step's `timeout` or the request's). svc classifies what `run` throws as
   * it does its own steps' errors, through the error's `cause`s: a network error `code`
   * (`ECONNREFUSED`, `ENOTFOUND`...) is a 503, an error of the `pg` driver as for a `sql` step (a
   * refused value 400, an unreachable server 503); anything else is a 500. A step that reaches a
   * dependency and says so declares `[503, 504]`; `[]` says it cannot even time out.
   */
  readonly failures?: readonly StepFailureStatus[];
  /** The problems `check` reports, each with its code (see `StepCode`). */
  readonly codes?: readonly StepCode[];
  /**
   * Checks a block at boot, once, after its attributes have been read (and not when they are wrong):
   * `constants` holds the attributes whose value is known at boot (a literal, an expression of
   * literals), not those computed per request. A problem is reported with `report`, by the summary of
   * one of `codes`; an error stops the manifest from loading, a warning does not.
   */
  check?(constants: Partial<StepAttributeValues<A>>, report: StepCheckReport): void;
  /**
   * The step's work, per request: an object whose members are the step's outputs (or a promise of
   * one); with `stream: true`, an (async) iterable. A throw fails the request with a 500 problem
   * (its message is logged, never sent).
   */
  run(attributes: StepAttributeValues<A>, context: StepRunContext): unknown;
}

/**
 * A status a custom step's failure can have besides 500 (see `StepOptions.failures`). Not 502: only
 * svc's own outbound client (the http step) fails as a bad gateway.
 */
export type StepFailureStatus = 400 | 503 | 504;

/** What a custom step that gives no `failures` may fail with: its time-out (or the request's). */
const DEFAULT_FAILURES: readonly StepFailureStatus[] = Object.freeze([504] as const);
const FAILURE_STATUSES: readonly number[] = [400, 503, 504];

/** A JSON Schema (2020-12, as OpenAPI 3.1 takes it). */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** A defined step kind, ready to be handed to `loadService({ steps })`. */
export interface CustomStep {
  readonly name: string;
  readonly attributes: Readonly<Record<string, StepAttribute>>;
  readonly outputs: readonly string[] | undefined;
  /** The outputs' schemas, when the definition gave them (for OpenAPI). */
  readonly outputSchemas: Readonly<Record<string, JsonSchema>> | undefined;
  readonly items: JsonSchema | undefined;
  readonly stream: boolean;
  readonly failures: readonly StepFailureStatus[];
  readonly codes: readonly StepCode[];
  readonly check: ((constants: Record<string, unknown>, report: StepCheckReport) => void) | undefined;
  readonly run: (attributes: Record<string, unknown>, context: StepRunContext) => unknown;
}

/** Attributes svc reads on every custom step itself. */
export const RESERVED_ATTRIBUTES: readonly string[] = ['timeout', 'on_error'];

const NAME = /^[a-z][a-z0-9_]*$/;
const ATTRIBUTE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TYPES: readonly StepAttributeType[] = ['string', 'number', 'int', 'bool', 'list', 'map', 'any'];

/** Checks a definition and freezes it; throws a TypeError naming what is wrong. */
export function defineStep<const A extends Readonly<Record<string, StepAttribute>> = Record<never, StepAttribute>>(options: StepOptions<A>): CustomStep {
  const { name } = options;
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new TypeError(`defineStep: the name must be lowercase letters, digits and "_", starting with a letter; got ${JSON.stringify(name)}`);
  }
  const attributes: Readonly<Record<string, StepAttribute>> = options.attributes ?? {};
  for (const [attribute, rule] of Object.entries(attributes)) {
    if (!ATTRIBUTE_NAME.test(attribute)) throw new TypeError(`defineStep "${name}": attribute ${JSON.stringify(attribute)} is not an identifier`);
    if (RESERVED_ATTRIBUTES.includes(attribute)) throw new TypeError(`defineStep "${name}": attribute "${attribute}" is svc's own on every step`);
    if (rule.type !== undefined && !TYPES.includes(rule.type)) {
      throw new TypeError(`defineStep "${name}": attribute "${attribute}" has type ${JSON.stringify(rule.type)}; types are ${TYPES.join(', ')}`);
    }
  }
  const stream = options.stream === true;
  const given = options.outputs;
  if (given !== undefined && (typeof given !== 'object' || given === null)) {
    throw new TypeError(`defineStep "${name}": outputs must be a list of names or an object of schemas`);
  }
  const schemas = given !== undefined && !Array.isArray(given) ? (given as Readonly<Record<string, JsonSchema>>) : undefined;
  const outputs = stream ? ['stream'] : schemas !== undefined ? Object.keys(schemas) : (given as readonly string[] | undefined);
  if (outputs?.some((o) => typeof o !== 'string' || !ATTRIBUTE_NAME.test(o))) {
    throw new TypeError(`defineStep "${name}": output names must be identifiers`);
  }
  for (const [output, schema] of Object.entries(schemas ?? {})) {
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
      throw new TypeError(`defineStep "${name}": the schema of output "${output}" is not an object`);
  }
  if (options.items !== undefined && (!stream || options.items === null || typeof options.items !== 'object')) {
    throw new TypeError(`defineStep "${name}": items is the schema (an object) of a streaming step's items`);
  }
  if (typeof options.run !== 'function') throw new TypeError(`defineStep "${name}": run must be a function`);
  const failures = options.failures ?? DEFAULT_FAILURES;
  if (!Array.isArray(failures) || failures.some((s) => !FAILURE_STATUSES.includes(s))) {
    throw new TypeError(`defineStep "${name}": failures lists statuses among ${FAILURE_STATUSES.join(', ')} (500 goes without saying)`);
  }
  const codes = stepCodes(name, options.codes);
  if (options.check !== undefined && typeof options.check !== 'function') throw new TypeError(`defineStep "${name}": check must be a function`);
  if (options.check !== undefined && codes.length === 0) {
    throw new TypeError(`defineStep "${name}": check reports with the step's codes; declare them in codes`);
  }
  return Object.freeze({
    name,
    attributes: Object.freeze({ ...attributes }),
    outputs: outputs === undefined ? undefined : Object.freeze([...outputs]),
    outputSchemas: stream || schemas === undefined ? undefined : Object.freeze({ ...schemas }),
    items: options.items,
    stream,
    failures: Object.freeze([...new Set(failures)].sort((a, b) => a - b)),
    codes,
    check: options.check as CustomStep['check'],
    run: options.run as CustomStep['run'],
  });
}

const CODE_WHAT = /^[A-Z0-9]+(?:_[A-Z0-9]+)*$/;

/** The step's codes, checked (`SVC_STEP_<NAME>_<WHAT>`, a title, a sentence; none twice) and frozen. */
function stepCodes(name: string, given: readonly StepCode[] | undefined): readonly StepCode[] {
  if (given === undefined) return Object.freeze([]);
  if (!Array.isArray(given)) throw new TypeError(`defineStep "${name}": codes must be a list of { code, summary, description }`);
  const prefix = `SVC_STEP_${name.toUpperCase()}_`;
  const seen = new Set<string>();
  return Object.freeze(
    given.map((entry: StepCode) => {
      const { code, summary, description } = entry ?? {};
      if (typeof code !== 'string' || !code.startsWith(prefix) || !CODE_WHAT.test(code.slice(prefix.length))) {
        throw new TypeError(`defineStep "${name}": a code is ${prefix}<WHAT>, upper case letters, digits and "_"; got ${JSON.stringify(code)}`);
      }
      if (typeof summary !== 'string' || summary.trim() === '' || summary.endsWith('.') || summary.includes('\n')) {
        throw new TypeError(`defineStep "${name}": the summary of ${code} is a one-line title without a full stop; got ${JSON.stringify(summary)}`);
      }
      if (typeof description !== 'string' || description.trim() === '') {
        throw new TypeError(`defineStep "${name}": ${code} needs a description, a sentence saying what the problem is`);
      }
      for (const key of [code, summary]) {
        if (seen.has(key)) throw new TypeError(`defineStep "${name}": ${JSON.stringify(key)} is given to two codes`);
        seen.add(key);
      }
      return Object.freeze({ code, summary, description });
    }),
  );
}
