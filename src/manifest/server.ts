/**
 * `server { host, port, max_body_size, request_timeout, shutdown_timeout, auth = [...] }` with the
 * defaults of DECISIONS.md §1. Sizes and durations are parsed here, at boot.
 */
import type { Block } from '../hcl/index.js';
import type { ServerModel } from './types.js';
import { decodeBody, type BodySchema } from './body.js';
import { readGuardList, type GuardNames } from './refs.js';
import type { DecodeScope } from './scope.js';
import { readDuration, readInt, readSize, readString } from './values.js';

export const SERVER_DEFAULTS = {
  host: '127.0.0.1',
  port: 8080,
  maxBodySize: 1024 * 1024,
  requestTimeoutMs: 30_000,
  shutdownTimeoutMs: 10_000,
} as const;

const SERVER_BODY: BodySchema = {
  attributes: { host: {}, port: {}, max_body_size: {}, request_timeout: {}, shutdown_timeout: {}, auth: {} },
};

export function defaultServer(): ServerModel {
  return { ...SERVER_DEFAULTS, auth: [] };
}

export function decodeServer(block: Block, scope: DecodeScope, guards: GuardNames): ServerModel {
  const s = scope.enter(block);
  const { attrs } = decodeBody(block.body, SERVER_BODY, s, block);
  const auth = attrs.get('auth');
  return {
    host: readString(attrs.get('host'), s) ?? SERVER_DEFAULTS.host,
    port: readInt(attrs.get('port'), s, { min: 0, max: 65535 }) ?? SERVER_DEFAULTS.port,
    maxBodySize: readSize(attrs.get('max_body_size'), s) ?? SERVER_DEFAULTS.maxBodySize,
    requestTimeoutMs: readDuration(attrs.get('request_timeout'), s) ?? SERVER_DEFAULTS.requestTimeoutMs,
    shutdownTimeoutMs: readDuration(attrs.get('shutdown_timeout'), s) ?? SERVER_DEFAULTS.shutdownTimeoutMs,
    auth: (auth && readGuardList(auth, s, guards)) || [],
    range: block.range,
  };
}
