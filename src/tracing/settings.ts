/**
 * Whether tracing is on, and with what, from the `server { tracing { ... } }` block and the standard
 * `OTEL_*` environment variables (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/).
 *
 * On with the block, or when the environment asks for OTLP traces; always off with
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`, so an operator can silence a manifest that
 * traces. Per attribute: the block's, else its environment variable, else the default; what the block
 * does not name (`OTEL_BSP_*`, `OTEL_TRACES_SAMPLER`...) the SDK reads from the environment itself.
 */

/** The block as the manifest decoded it (src/manifest tracing.ts); every attribute optional. */
export interface TracingBlock {
  /** OTLP/HTTP base URL; `/v1/traces` is appended (as for OTEL_EXPORTER_OTLP_ENDPOINT). */
  readonly endpoint?: string;
  readonly serviceName?: string;
  /** 0..1: the share of new traces sampled; a request that arrives with a trace follows its parent's choice. */
  readonly sampleRatio?: number;
  /** Sent with every export (an API key of a hosted collector). */
  readonly headers?: Readonly<Record<string, string>>;
}

export type Env = Readonly<Record<string, string | undefined>>;

export interface TracingSettings {
  /** The full traces URL when the block gives one; else the exporter reads the environment. */
  readonly tracesUrl?: string;
  readonly serviceName: string;
  /** Only from the block: without it the SDK reads OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG. */
  readonly sampleRatio?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** `service.name` when neither the block nor OTEL_SERVICE_NAME gives one. */
const DEFAULT_SERVICE_NAME = 'svc';

/** The settings when tracing is on, else undefined. */
export function tracingSettings(block: TracingBlock | undefined, env: Env): TracingSettings | undefined {
  if (!tracingWanted(block, env)) return undefined;
  const serviceName = block?.serviceName ?? (nonEmpty(env.OTEL_SERVICE_NAME) || DEFAULT_SERVICE_NAME);
  return {
    serviceName,
    ...(block?.endpoint !== undefined ? { tracesUrl: tracesUrlOf(block.endpoint) } : {}),
    ...(block?.sampleRatio !== undefined ? { sampleRatio: block.sampleRatio } : {}),
    ...(block?.headers !== undefined ? { headers: block.headers } : {}),
  };
}

/** Whether tracing is on: cheap, synchronous, and loads nothing (the step compiler asks it at boot). */
export function tracingWanted(block: TracingBlock | undefined, env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '');
  if (exporters.includes('none')) return false;
  if (block !== undefined) return true;
  return exporters.includes('otlp') || nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT) !== '' || nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) !== '';
}

/** A base URL gets the signal's path, as the specification says for OTEL_EXPORTER_OTLP_ENDPOINT. */
export function tracesUrlOf(endpoint: string): string {
  return endpoint.endsWith('/') ? `${endpoint}v1/traces` : `${endpoint}/v1/traces`;
}

function nonEmpty(value: string | undefined): string {
  return value?.trim() ?? '';
}
