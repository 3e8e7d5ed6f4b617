/**
 * What an endpoint's representation adds to its operation (docs/conditional-requests.md): with
 * `etag`, a GET's answers with a body carry `ETag` and a 304 (Not Modified) can answer an
 * `If-None-Match`; with `cache_control`, its successful answers carry `Cache-Control`. A pipeline that
 * answers 304 itself keeps its own description.
 */
import type { PipelineEndpointModel } from '../model/index.js';
import type { HeaderObject, RefObject, ResponseObject } from './document-types.js';

const ETAG: HeaderObject = {
  description: 'A strong validator of this answer\'s bytes (a compressed answer\'s ends in "-gzip", "-br" or "-zstd"); send it back in If-None-Match.',
  required: true,
  schema: { type: 'string' },
};

export function addConditionalResponses(responses: Record<string, ResponseObject | RefObject>, endpoint: PipelineEndpointModel): void {
  const rep = endpoint.representation;
  if (rep === undefined) return;
  const tagged = rep.etag && (endpoint.method === 'GET' || endpoint.method === 'HEAD');
  const cacheControl: HeaderObject | undefined =
    rep.cacheControl === undefined ? undefined : { description: `"${rep.cacheControl}", unless the pipeline sets its own.`, schema: { type: 'string' } };
  for (const [status, response] of Object.entries(responses)) {
    if ('$ref' in response || !/^2\d\d$/.test(status)) continue;
    const hasBody = response.content !== undefined;
    const headers = { ...response.headers };
    if (tagged && status === '200' && hasBody) headers.ETag = ETAG;
    if (cacheControl !== undefined && hasBody) headers['Cache-Control'] = cacheControl;
    if (Object.keys(headers).length > 0) responses[status] = { ...response, headers };
  }
  if (tagged && responses['304'] === undefined && responses['200'] !== undefined) {
    responses['304'] = {
      description: 'Not Modified: If-None-Match holds the current tag (or "*"); no body.',
      headers: { ETag: ETAG, ...(cacheControl !== undefined ? { 'Cache-Control': cacheControl } : {}) },
    };
  }
}
