/**
 * All files of a manifest -> one decoded service. Blocks from every file merge; declarations are
 * decoded before endpoints (schemas, guards, connections), so references resolve whatever the file
 * or block order. `server` and the top-level `openapi` block may appear once across all files.
 */
import { dirname } from 'node:path';
import type { Block, File } from '../hcl/index.js';
import type { Diagnostics } from '../diag/index.js';
import { connectionKey, type ConnectionKind } from './connection-kind.js';
import type { AuthModel, ConnectionModel, OpenApiMeta, ServerModel } from './types.js';
import { decodeBody, where, type BodySchema } from './body.js';
import { decodeAuth } from './auth.js';
import { connectionKindOf, decodeConnection } from './connection.js';
import { decodeEndpoint, type DecodedEndpoint } from './endpoint.js';
import type { FileAccess } from './files.js';
import { decodeOpenApiMeta, defaultOpenApiMeta } from './openapi-meta.js';
import type { ConnectionTable } from './refs.js';
import { SchemaTable } from './schema.js';
import { DecodeScope } from './scope.js';
import type { DecodeEnv, StepDecoders } from './steps.js';
import { decodeServer, defaultServer } from './server.js';
import type { ObjectTypeSpec } from '../schema/index.js';

const TOP_LEVEL: BodySchema = {
  blocks: {
    server: { multiple: true },
    // A label is reported by the openapi decoder itself, with a hint about where labelled ones go.
    openapi: { labels: ['kind'], labelCounts: [0, 1], multiple: true },
    schema: { labels: ['name'], multiple: true },
    auth: { labels: ['name'], multiple: true },
    connection: { labels: ['kind', 'name'], multiple: true },
    endpoint: { labels: ['method and path'], multiple: true },
    route: { labels: ['method and path'], multiple: true },
  },
};

export interface DecodedManifest {
  readonly server: ServerModel;
  readonly openapi: OpenApiMeta;
  readonly schemas: ReadonlyMap<string, ObjectTypeSpec>;
  readonly auths: ReadonlyMap<string, AuthModel>;
  readonly connections: ReadonlyMap<string, ConnectionModel>;
  readonly endpoints: readonly DecodedEndpoint[];
}

interface Located {
  readonly block: Block;
  readonly scope: DecodeScope;
}

/**
 * `steps` are the step kinds, injected by the caller (src/model passes what src/steps defines), so
 * the decoders of pipelines never import the layer above them.
 */
export function decodeManifest(files: readonly File[], diags: Diagnostics, access: FileAccess, steps: StepDecoders): DecodedManifest {
  // Sort every top-level block by type, keeping file and source order within a type.
  const byType = new Map<string, Located[]>();
  for (const file of files) {
    const scope = new DecodeScope(diags, [], file.filename, dirname(file.filename));
    const { blocks } = decodeBody(file.body, TOP_LEVEL, scope);
    for (const block of blocks) {
      const list = byType.get(block.type) ?? [];
      list.push({ block, scope });
      byType.set(block.type, list);
    }
  }
  const of = (type: string): Located[] => byType.get(type) ?? [];

  const schemas = new SchemaTable();
  for (const { block, scope } of of('schema')) schemas.add(block, scope);

  const auths = new Map<string, AuthModel>();
  const authBlocks = new Map<string, Block>();
  for (const { block, scope } of of('auth')) {
    const name = block.labels[0]!;
    const previous = authBlocks.get(name);
    if (previous) {
      scope
        .enter(block)
        .error('Duplicate guard', block.labelRanges[0], { detail: `An auth "${name}" block was already declared at ${where(previous.labelRanges[0]!)}.` });
      continue;
    }
    authBlocks.set(name, block);
    const guard = decodeAuth(block, scope);
    if (guard) auths.set(name, guard);
  }

  const connections = new Map<string, ConnectionModel>();
  const connectionBlocks = new Map<string, Block>();
  const kindsByName = new Map<string, ConnectionKind[]>();
  for (const { block, scope } of of('connection')) {
    const kind = connectionKindOf(block, scope.enter(block));
    if (!kind) continue;
    const name = block.labels[1]!;
    const key = connectionKey(kind, name);
    const previous = connectionBlocks.get(key);
    if (previous) {
      scope.enter(block).error('Duplicate connection', block.labelRanges[1], {
        detail: `connection "${kind}" "${name}" was already declared at ${where(previous.labelRanges[1]!)}.`,
      });
      continue;
    }
    connectionBlocks.set(key, block);
    kindsByName.set(name, [...(kindsByName.get(name) ?? []), kind]);
    const c = decodeConnection(block, kind, scope);
    if (c) connections.set(key, c);
  }
  const table: ConnectionTable = {
    kindsOf: (name) => kindsByName.get(name) ?? [],
    namesOf: (kind) => [...connectionBlocks.keys()].filter((k) => k.startsWith(kind + '.')).map((k) => k.slice(kind.length + 1)),
  };

  // Declared guards count even when their body had errors, so endpoints do not report them again.
  const guardNames = { has: (n: string) => authBlocks.has(n), keys: () => authBlocks.keys() };

  const server = single(of('server'), 'server', (b, s) => decodeServer(b, s, guardNames, table, access)) ?? defaultServer();
  const openapi =
    single(of('openapi'), 'openapi', (b, s) => {
      if (b.labels.length > 0) {
        s.enter(b).error('Unexpected openapi label', b.labelRanges[0], {
          detail: 'A top-level openapi block sets the document metadata and takes no label; labelled openapi blocks go inside an endpoint.',
        });
        return undefined;
      }
      return decodeOpenApiMeta(b, s);
    }) ?? defaultOpenApiMeta();

  const env: DecodeEnv = { schemas, guards: guardNames, connections: table, files: access, steps };
  const endpoints: DecodedEndpoint[] = [];
  for (const { block, scope } of [...of('endpoint'), ...of('route')].sort(bySource(files))) {
    const e = decodeEndpoint(block, scope, env, server);
    if (e) endpoints.push(e);
  }
  return { server, openapi, schemas: schemas.all(), auths, connections, endpoints };
}

/** A block allowed once across all files: later ones are reported, the first one is used. */
function single<T>(list: readonly Located[], type: string, decode: (b: Block, s: DecodeScope) => T | undefined): T | undefined {
  const [first, ...rest] = list;
  for (const { block, scope } of rest) {
    scope.enter(block).error(`Duplicate ${type} block`, block.typeRange, {
      detail: `Only one top-level "${type}" block is allowed across all manifest files; the first is at ${where(first!.block.typeRange)}.`,
    });
  }
  return first ? decode(first.block, first.scope) : undefined;
}

/** Endpoints and routes in file order, then source order. */
function bySource(files: readonly File[]): (a: Located, b: Located) => number {
  const index = new Map(files.map((f, i) => [f.filename, i]));
  return (a, b) => index.get(a.block.range.filename)! - index.get(b.block.range.filename)! || a.block.range.start.byte - b.block.range.start.byte;
}
