/**
 * Starting and stopping tracing in a serving process. The SDK (sdk.ts) is imported here dynamically,
 * and only when tracing is on: the cold start of a service without tracing loads none of it.
 */
import { setActiveTracer } from './active.js';
import type { TracingSettings } from './settings.js';

export interface Tracing {
  /** Exports the spans still queued and stops tracing; the hooks see no tracer from then on. */
  stop(): Promise<void>;
}

/**
 * Loads the SDK and makes its tracer the active one (active.ts). `onError` hears what the SDK could
 * not do (spans it could not export); it must not throw.
 */
export async function startTracing(settings: TracingSettings, version: string, onError: (error: unknown) => void): Promise<Tracing> {
  const { startSdk } = await import('./sdk.js');
  const sdk = startSdk(settings, version, onError);
  setActiveTracer(sdk.tracer);
  return {
    async stop() {
      setActiveTracer(undefined);
      await sdk.shutdown();
    },
  };
}
