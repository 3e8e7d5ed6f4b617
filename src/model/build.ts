/**
 * Manifest sources -> checked ServiceModel. Parse every file, decode all blocks (src/manifest),
 * then run the whole-service and per-endpoint boot checks. Every problem of the run is reported;
 * a model is returned only when there is no error (warnings do not block).
 */
import { Diagnostics, type Diagnostic } from '../diag/index.js';
import { parseFile, type File } from '../hcl/index.js';
import { decodeManifest, forLoading, hasArgumentCommas, repairCommas, stepDecoderTable, type StepSpecBase } from '../manifest/index.js';
import { failureStatuses, stepResponses } from './answers.js';
import { checkFlow, staticStatuses } from './checks/flow.js';
import { checkReferences } from './checks/references.js';
import { checkFieldSpecs } from './checks/fields.js';
import { checkDuplicateRoutes, checkMetricsPath } from './checks/routes.js';
import { checkStepNames } from './checks/step-names.js';
import { checkProcessLocalConnections, checkProcessLocalRateLimits } from './checks/process-local.js';
import type { AnyStepKindModel, StepKindModel, StepKindModels } from './step-kind.js';
import type { EndpointModel, ServiceModel } from './types.js';

export interface SourceFile {
  readonly filename: string;
  readonly source: string;
}

export interface BuildOptions {
  /**
   * The step kinds the manifest may use, injected by the layer that owns them (src/steps exports
   * `STEP_KINDS`): their decoders read step blocks, their definitions drive the boot checks.
   */
  readonly steps: readonly AnyStepKindModel[];
  /** The manifest directory (referenced files may not escape it). Default '.'. */
  readonly dir?: string;
  /** Read referenced files (template_file, starlark file) at boot. Default false (in-memory builds). */
  readonly readFiles?: boolean;
}

export interface BuildResult<S extends StepSpecBase = StepSpecBase> {
  /** Present only when no diagnostic is an error. */
  readonly model?: ServiceModel<S>;
  readonly diagnostics: Diagnostic[];
  readonly sources: Map<string, string>;
}

/**
 * `S` is the union of the specs `options.steps` decode; the caller that owns the kinds names it
 * (src/steps `buildServiceModel` gives `StepSpec`).
 */
export function buildModel<S extends StepSpecBase = StepSpecBase>(files: readonly SourceFile[], options: BuildOptions): BuildResult<S> {
  const diags = new Diagnostics();
  const sources = new Map(files.map((f) => [f.filename, f.source]));
  const parsed: File[] = [];
  // A manifest written for hclapi is decoded in svc's spellings (its commas between arguments
  // first); every diagnostic points at the files as written.
  const commaWarnings: Diagnostic[] = [];
  for (const f of files) {
    let { file, diagnostics } = parseFile(f.source, f.filename);
    if (hasArgumentCommas(diagnostics, f.source)) {
      const repaired = repairCommas(f.source, f.filename);
      ({ file, diagnostics } = parseFile(repaired.source, f.filename));
      commaWarnings.push(...repaired.warnings);
    }
    diags.append(diagnostics);
    parsed.push(file);
  }
  const compat = forLoading(parsed, sources);
  const dir = options.dir ?? '.';
  // One table for the checks; the decoders' own table (by block type, aliases included) is built
  // from the same definitions. The list is the trust boundary: a spec of kind K came from kind K.
  const kinds: StepKindModels = new Map(options.steps.map((k): [string, StepKindModel] => [k.kind, k]));
  const decoded = decodeManifest(compat.files, diags, { rootDir: dir, read: options.readFiles ?? false }, stepDecoderTable(kinds.values()));

  checkDuplicateRoutes(decoded.endpoints);
  checkMetricsPath(decoded.endpoints, decoded.server.metricsPath);
  const endpoints = decoded.endpoints.map(({ model, scope, declaredSteps, bodyRange, checkFlow: flow }): EndpointModel => {
    if (model.kind !== 'pipeline') return model;
    // after_response's steps come after the pipeline's: they read its outputs, never the reverse.
    const all = model.after ? [...model.steps, ...model.after] : model.steps;
    checkStepNames(kinds, all, scope);
    if (flow) checkFlow(kinds, model.steps, scope, bodyRange);
    checkReferences(kinds, all, model.request, model.path, scope, declaredSteps);
    return {
      ...model,
      statuses: staticStatuses(kinds, model.steps),
      failureStatuses: failureStatuses(kinds, model.steps),
      responses: stepResponses(kinds, model.steps),
    };
  });

  checkFieldSpecs(decoded.schemas, endpoints, diags);
  // `svc serve --workers N` runs the same check for the flag's count (src/cli).
  diags.append(checkProcessLocalConnections(decoded.connections.values(), decoded.server.workers, 'the server block'));
  diags.append(checkProcessLocalRateLimits(decoded.server, endpoints, decoded.connections, decoded.server.workers, 'the server block'));

  const diagnostics = inSourceOrder([...commaWarnings, ...compat.diagnostics, ...diags.items.map(compat.remap)], files);
  if (diags.hasErrors) return { diagnostics, sources };
  // The specs were produced by the decoders of `options.steps`, so they are the union `S`.
  const model = deepFreeze({
    server: decoded.server,
    openapi: decoded.openapi,
    endpoints,
    schemas: decoded.schemas,
    auths: decoded.auths,
    connections: decoded.connections,
    // The text decoded (an hclapi manifest's in svc's spellings), which the model's ranges point into.
    sources: new Map(compat.files.map((f) => [f.filename, f.source])),
    dir,
  }) as ServiceModel<S>;
  return { model, diagnostics, sources };
}

/** Diagnostics by file (manifest order), then position; the decode phases' order means nothing to a reader. */
function inSourceOrder(items: readonly Diagnostic[], files: readonly SourceFile[]): Diagnostic[] {
  const index = new Map(files.map((f, i) => [f.filename, i]));
  const key = (d: Diagnostic): [number, number] => (d.subject ? [index.get(d.subject.filename) ?? -1, d.subject.start.byte] : [-1, -1]);
  return items
    .map((d, i) => ({ d, i, k: key(d) }))
    .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.i - b.i)
    .map((x) => x.d);
}

/**
 * Freezes the plain-data parts of the model so no consumer can change it under another's feet.
 * Compiled expressions (they hold closures) and Maps (frozen objects, mutable entries) are left as
 * they are; their types are read-only.
 */
function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (typeof value !== 'object' || value === null || seen.has(value) || Object.isFrozen(value)) return value;
  seen.add(value);
  // Source ranges are the parser's own objects, never handed out for change: not worth a walk.
  if ('start' in value && 'filename' in value) return value;
  if (value instanceof Map) {
    for (const v of value.values()) deepFreeze(v, seen);
    return value;
  }
  if (typeof (value as { evaluate?: unknown }).evaluate === 'function') return value;
  for (const v of Object.values(value)) deepFreeze(v, seen);
  return Object.freeze(value);
}
