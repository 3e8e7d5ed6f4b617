/**
 * `loadService`: a manifest directory loaded, checked and compiled exactly as `svc check` and `svc
 * serve` do (src/cli/boot.ts), with the embedding program's step kinds beside the built-in ones.
 * Nothing is opened: `createServer` or `svcPlugin` opens the connections.
 */
import { toDot } from '../../graph/index.js';
import { loadService as loadBooted, type Booted } from '../cli/index.js';
import { compileOpenApi } from '../openapi/index.js';
import { graphsToDraw, type AnyStepKindDefinition, type CustomStep } from '../steps/index.js';
import { diagnosticsReport, publicDiagnostic, type ManifestDiagnostic } from './diagnostics.js';
import { stepKindsWith } from './kinds.js';

export interface LoadOptions {
  /** Step kinds of the program's own (`defineStep`), used in the manifest like built-in ones. */
  readonly steps?: readonly CustomStep[];
}

export interface ServiceLoad {
  /** True when no diagnostic is an error: then `service` is set. */
  readonly ok: boolean;
  /** Every diagnostic, warnings included, in the order `svc check` prints them. */
  readonly diagnostics: readonly ManifestDiagnostic[];
  /** The diagnostics as `svc check` prints them (with the manifest's lines); empty when there are none. */
  readonly report: string;
  readonly service?: Service;
}

/** A checked, compiled manifest: what `createServer` and `svcPlugin` serve. */
export class Service {
  readonly #booted: Booted;
  readonly #steps: readonly AnyStepKindDefinition[];

  /** @internal Made by `loadService`. */
  constructor(booted: Booted, steps: readonly AnyStepKindDefinition[]) {
    this.#booted = booted;
    this.#steps = steps;
  }

  /** The endpoints with a pipeline, as `"GET /path"`, in declaration order. */
  get endpoints(): readonly string[] {
    return this.#booted.service.graphs.map((g) => g.name);
  }

  /** The endpoints' dataflow graphs as Graphviz DOT, as `svc graph` prints them (custom steps drawn by name). */
  graph(endpoint?: string): string {
    const graphs = this.#booted.service.graphs;
    return toDot(graphsToDraw(endpoint === undefined ? graphs : graphs.filter((g) => g.name === endpoint)));
  }

  /** The OpenAPI 3.1 document of the manifest, as `svc openapi` writes it. */
  openapi(): Record<string, unknown> {
    return compileOpenApi(this.#booted.model) as unknown as Record<string, unknown>;
  }

  /** @internal For createServer and svcPlugin: the checked service and the step kinds it was loaded with. */
  static internals(service: Service): { readonly booted: Booted; readonly steps: readonly AnyStepKindDefinition[] } {
    if (!(service instanceof Service)) throw new TypeError('a Service from loadService(...) is expected');
    return { booted: service.#booted, steps: service.#steps };
  }
}

/**
 * Loads the manifest of `dir`. A TypeError when `steps` is wrong (a name taken by a built-in kind);
 * a manifest's problems are diagnostics, never a throw.
 */
export async function loadService(dir: string, options: LoadOptions = {}): Promise<ServiceLoad> {
  const steps = stepKindsWith(options.steps ?? []);
  const { booted, diagnostics, sources } = await loadBooted(dir, { steps });
  const common = { diagnostics: diagnostics.map(publicDiagnostic), report: diagnosticsReport(diagnostics, sources) };
  return booted === undefined ? { ok: false, ...common } : { ok: true, ...common, service: new Service(booted, steps) };
}
