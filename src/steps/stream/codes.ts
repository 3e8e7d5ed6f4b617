/**
 * The diagnostic codes of stream steps, the `codes` facet of ./index.ts: the format, its headers and
 * options, and a live source's backlog and replay.
 * A code never changes (src/diag/codes.ts): these keep the ones they had in the central catalogue.
 */
import type { DiagnosticCode } from '../../diag/index.js';

export const STREAM_CODES: readonly DiagnosticCode[] = [
  { code: 'SVC_STEP_UNKNOWN_STREAM_FORMAT', summary: 'Unknown stream format', description: 'A stream step with a format svc does not encode.' },
  {
    code: 'SVC_STEP_INVALID_STREAM',
    summary: 'Invalid stream step',
    description: 'A stream step whose constant headers or options cannot be sent (a bad header name or value, an event name with a line break).',
  },
  {
    code: 'SVC_STEP_STREAM_INVALID_MAX_BACKLOG',
    summary: 'Invalid max_backlog',
    description: "A stream step's max_backlog outside 64KiB to 1GiB, the bytes a live source may hold for one client.",
  },
  {
    code: 'SVC_STEP_STREAM_REPLAY_WITHOUT_ID',
    summary: 'Replay without id',
    description: 'A stream step with replay and no id, which orders the missed and the live items and tells which the client has.',
  },
  {
    code: 'SVC_STEP_STREAM_REPLAY_BEFORE_LIVE',
    summary: 'Replay read before its live source',
    description:
      "A stream step whose replay comes from a step that runs before (or with) its live source's step, so items published between the two would be missed.",
  },
];
