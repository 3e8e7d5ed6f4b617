/**
 * A stream step as the OpenAPI document describes its answer (the kind's `responses`): the media
 * type, what the body is made of, and a note on how each format frames its items and ends on an
 * error, which only this kind knows.
 */
import type { StreamResponse } from '../../model/index.js';
import type { StreamFormat, StreamStepSpec } from './spec.js';

const NOTES: Readonly<Record<StreamFormat, string>> = {
  sse: 'Server-Sent Events, one event per item (data: the item as JSON); an error ends the stream with `event: error` and a problem record.',
  ndjson: 'Newline-delimited JSON, one item per line; an error ends the stream with a last line {"error": <problem>}.',
  csv: 'CSV with a header row (RFC 4180); an error cuts the transfer short.',
  raw: 'The bytes of the source, as they come.',
};

const BODY: Readonly<Record<StreamFormat, StreamResponse['body']>> = { sse: 'items', ndjson: 'items', csv: 'text', raw: 'bytes' };

export function streamResponse(spec: StreamStepSpec): StreamResponse {
  const event =
    spec.format !== 'sse'
      ? ''
      : spec.event !== undefined
        ? ` Events are named \`${spec.event}\`.`
        : spec.eventOf !== undefined
          ? ' Each event is named by its item.'
          : '';
  const columns = spec.format === 'csv' && spec.columns !== undefined ? ` Columns: ${spec.columns.join(', ')}.` : '';
  return {
    kind: 'stream',
    contentType: spec.contentType,
    headers: spec.headers,
    body: BODY[spec.format],
    note: NOTES[spec.format] + event + columns,
    schema: spec.schema,
    source: spec.source,
  };
}
