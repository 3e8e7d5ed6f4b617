/**
 * `http` as a graph step (DECISIONS.md §1), sent on the outbound client opened at boot. A URL known at
 * boot is checked then and gets a keep-alive pool of its own; one computed per request uses the
 * shared agent. The step's signal (time-out, teardown, client gone) aborts the call and undici
 * destroys the connection. Exchange failures are 502 (504 on a time-out); the upstream's own
 * 4xx/5xx is the step's output. Outputs: ./response.ts, or with `stream = true` ./stream.ts.
 */
import { Category, type StepNodeDef } from '../../../graph/index.js';
import { ConnectorCategory, DEFAULT_MAX_BODY_BYTES, type OutboundClient } from '../../connectors/index.js';
import type { EndpointScope } from '../contract.js';
import type { CompileEnv, NodeCompiler } from '../definition.js';
import { bodyOf, headersOf, HttpStepError, UnsafeUrlValueError, urlOf } from './request.js';
import { outputOf, UpstreamBodyError } from './response.js';
import { AttemptTimeoutError, withRetry } from './retry.js';
import { streamedExchange } from './stream.js';
import type { HttpStepSpec } from './spec.js';

export const compileHttp: NodeCompiler<HttpStepSpec> = (spec, env) => {
  const bound = bindUrl(spec, env);
  if (bound === undefined) return undefined;
  const { client, url: fixedUrl } = bound;
  const { method, url, headers, body, timeoutMs, pathFromValues, readTimeoutMs, retry } = spec;
  const node: StepNodeDef<EndpointScope> = {
    type: 'step',
    kind: 'http',
    id: env.idOf(spec),
    name: spec.name,
    // Without query string or userinfo: `svc graph` output is shared, keys must not be.
    label: `${method} ${fixedUrl ? fixedUrl.origin + fixedUrl.pathname : '(computed URL)'}`,
    reads: env.readsOf([url, headers, body]),
    meta: spec,
    // The graph's time-out aborts ctx.signal, which cancels the exchange: no second timer is needed.
    // With `retry`, `timeout` bounds each attempt instead (./retry.ts).
    ...(retry === undefined ? { timeout: timeoutMs } : {}),
    // An upstream body that is not what it says (invalid JSON) is the gateway's failure, like a reset;
    // a request value that cannot be a path segment is the request's (a 400).
    classify: (cause) =>
      cause instanceof UpstreamBodyError
        ? ConnectorCategory.badGateway
        : cause instanceof UnsafeUrlValueError
          ? ConnectorCategory.invalidInput
          : cause instanceof AttemptTimeoutError
            ? Category.timeout
            : undefined,
    run(scope, ctx) {
      const target = fixedUrl ?? urlOf(url.evaluate(scope), pathFromValues);
      const sent = headersOf(headers?.evaluate(scope));
      const payload = bodyOf(body?.evaluate(scope), sent);
      if (spec.stream) return streamedExchange(client, { method, url: target, headers: sent, body: payload, readTimeoutMs }, ctx);
      if (retry === undefined) {
        return client.request({ method, url: target, headers: sent, body: payload, signal: ctx.signal, maxBodyBytes: DEFAULT_MAX_BODY_BYTES }).then(outputOf);
      }
      return withRetry(retry, timeoutMs, ctx.signal, (signal) =>
        client.request({ method, url: target, headers: sent, body: payload, signal, maxBodyBytes: DEFAULT_MAX_BODY_BYTES }).then(outputOf),
      );
    },
  };
  return node;
};

/** The client the step sends on: its own origin's pool when the URL is known at boot. */
function bindUrl(spec: HttpStepSpec, env: CompileEnv): { client: OutboundClient; url?: URL } | undefined {
  if (!spec.url.constant) return { client: env.outbound.any };
  let url: URL;
  try {
    url = urlOf(spec.url.value);
  } catch (error) {
    if (!(error instanceof HttpStepError)) throw error;
    env.error(spec, 'Invalid http step url', error.message, spec.url.range);
    return undefined;
  }
  return { client: env.outbound.forOrigin(url.origin), url };
}
