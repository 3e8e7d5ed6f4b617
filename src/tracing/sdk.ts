/**
 * The OpenTelemetry SDK, set up for one process: a tracer provider with svc's resource, the
 * sampler, a batch span processor and the OTLP/HTTP exporter (JSON), and the W3C trace-context
 * propagator. No context manager: spans.ts hands parents over explicitly.
 *
 * The one file that loads the SDK; start.ts imports it dynamically, so a service without tracing
 * never loads a module of OpenTelemetry. Each worker of `--workers N` runs this for itself and
 * exports its own spans.
 */
import { propagation } from '@opentelemetry/api';
import { setGlobalErrorHandler, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { SvcTracer } from './active.js';
import type { TracingSettings } from './settings.js';
import { createSvcTracer } from './spans.js';

export interface StartedSdk {
  readonly tracer: SvcTracer;
  /** Exports what is still queued, then stops; bounded by the exporter's own time-out. */
  shutdown(): Promise<void>;
}

/** `onError`: what the SDK could not do (an export refused, a collector unreachable); never thrown. */
export function startSdk(settings: TracingSettings, version: string, onError: (error: unknown) => void): StartedSdk {
  // The batch processor reports a failed export here (OpenTelemetry's own diagnostics are silent
  // unless a diag logger is set): svc's log says so, rate-limited by the caller.
  setGlobalErrorHandler(onError);
  // The environment's resource (OTEL_RESOURCE_ATTRIBUTES) over the SDK's defaults; the service name
  // settled by settings.ts (block, OTEL_SERVICE_NAME, "svc") over both.
  const resource = defaultResource()
    .merge(detectResources({ detectors: [envDetector] }))
    // The process: with `--workers N` each worker exports its own spans, told apart by their pid.
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName, [ATTR_SERVICE_VERSION]: version, 'process.pid': process.pid }));
  const exporter = new OTLPTraceExporter({
    ...(settings.tracesUrl !== undefined ? { url: settings.tracesUrl } : {}),
    ...(settings.headers !== undefined ? { headers: { ...settings.headers } } : {}),
  });
  const provider = new BasicTracerProvider({
    resource,
    // Without a ratio in the block the provider reads OTEL_TRACES_SAMPLER (parentbased_always_on by default).
    ...(settings.sampleRatio !== undefined ? { sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.sampleRatio) }) } : {}),
    // Reads OTEL_BSP_SCHEDULE_DELAY, OTEL_BSP_MAX_QUEUE_SIZE... itself.
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const tracer = createSvcTracer(provider.getTracer('svc', version));
  return {
    tracer,
    async shutdown() {
      await provider.shutdown();
      propagation.disable();
    },
  };
}
