/**
 * Tracing with OpenTelemetry (docs/operations.md "Tracing"): the settings, the start of the SDK, and the tracer
 * the hooks of src/http, src/steps and src/connectors read. Nothing exported here loads OpenTelemetry.
 */
export { activeTracer, REQUEST_SPAN, type ClientSystem, type IncomingHeaders, type SvcTracer, type TraceSpan } from './active.js';
export { tracingSettings, tracingWanted, type Env, type TracingBlock, type TracingSettings } from './settings.js';
export { startTracing, type Tracing } from './start.js';
