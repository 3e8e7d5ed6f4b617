/**
 * `endpoint "<METHOD> <path>" { description, auth, request {...}, pipeline {...} | openapi {...} }`
 * and `route "<METHOD> <path>" { summary, tag, request {...}, <steps>, respond {...} }`, decoded into
 * an endpoint model (the flow checks run afterwards, in src/model/checks). Both dialects accept
 * description, summary, tag and tags, and may be mixed in one manifest (DECISIONS.md §1).
 */
import type { Block } from '../hcl/index.js';
import { type Range, didYouMean } from '../diag/index.js';
import type { FieldSpec, RequestSpec } from '../schema/index.js';
import { blocksOf, blockHeader, decodeBody, type BodySchema } from './body.js';
import { decodeDocs } from './docs.js';
import { lowerSteps, stepBlockRules, type DecodeEnv, type StepDecoders } from './steps.js';
import type { StepSpecBase } from './step-types.js';
import type { Dialect, DocsConfig, EndpointModel, ServerModel } from './types.js';
import { decodeEndpointCors } from './cors.js';
import { decodeEndpointRateLimit } from './rate-limit.js';
import { decodeEndpointRepresentation } from './representation.js';
import { readGuardList } from './refs.js';
import { decodeRequest } from './request.js';
import { parseRouteLabel, type RouteLabel } from './route-label.js';
import type { DecodeScope } from './scope.js';
import { readString, readStringList } from './values.js';

// `rate_limit` is both: `rate_limit = false` exempts the endpoint, a `rate_limit { ... }` block limits it (rate-limit.ts);
// so is `cors`: `cors = false` turns the server's policy off, a `cors { ... }` block sets the endpoint's own (cors.ts).
const COMMON_ATTRS = { description: {}, summary: {}, tag: {}, tags: {}, auth: {}, rate_limit: {}, cors: {}, compression: {}, etag: {}, cache_control: {} };
const OPENAPI_RULE = { labels: ['kind'], labelCounts: [0, 1] };

interface EndpointBodies {
  readonly endpoint: BodySchema;
  readonly route: BodySchema;
  readonly pipeline: BodySchema;
}

/** The body schemas depend on the injected step kinds; built once per step table. */
const bodiesByStepTable = new WeakMap<StepDecoders, EndpointBodies>();

function endpointBodies(steps: StepDecoders): EndpointBodies {
  let bodies = bodiesByStepTable.get(steps);
  if (!bodies) {
    const stepRules = stepBlockRules(steps);
    bodies = {
      // Step blocks are accepted here only to be reported with a better hint than "unexpected block".
      endpoint: {
        attributes: COMMON_ATTRS,
        blocks: { request: {}, pipeline: {}, after_response: {}, openapi: OPENAPI_RULE, rate_limit: {}, cors: {}, ...stepRules },
      },
      // `pipeline` is accepted only to be reported with a hint (routes list their steps directly).
      route: {
        attributes: COMMON_ATTRS,
        blocks: { request: {}, openapi: OPENAPI_RULE, pipeline: {}, after_response: {}, rate_limit: {}, cors: {}, ...stepRules },
      },
      pipeline: { blocks: stepRules },
    };
    bodiesByStepTable.set(steps, bodies);
  }
  return bodies;
}

/** An endpoint as decoded, with what the flow checks need beyond the model. */
export interface DecodedEndpoint {
  readonly model: EndpointModel;
  readonly label: RouteLabel;
  readonly scope: DecodeScope;
  /** Names of every labelled step block, lowered or not: references to a step that failed to lower are not reported twice. */
  readonly declaredSteps: ReadonlySet<string>;
  /** Where "no response" points when the pipeline is empty. */
  readonly bodyRange: Range;
  /** Whether the pipeline's flow (ends with a response, nothing unreachable) is worth checking. */
  readonly checkFlow: boolean;
}

export function decodeEndpoint(block: Block, scope: DecodeScope, env: DecodeEnv, server: ServerModel): DecodedEndpoint | undefined {
  const dialect: Dialect = block.type === 'route' ? 'route' : 'endpoint';
  const s = scope.enter(block);
  const label = parseRouteLabel(block.labels[0]!, block.labelRanges[0]!, s);
  const bodies = endpointBodies(env.steps);
  const d = decodeBody(block.body, dialect === 'route' ? bodies.route : bodies.endpoint, s, block);

  const description = readString(d.attrs.get('description'), s);
  const summary = readString(d.attrs.get('summary'), s);
  const tags = [...(d.attrs.has('tag') ? [readString(d.attrs.get('tag'), s)] : []), ...(readStringList(d.attrs.get('tags'), s) ?? [])].filter(
    (t): t is string => t !== undefined,
  );
  const authAttr = d.attrs.get('auth');
  // A documentation endpoint's default is `docs_auth` when the server block sets it.
  const defaultAuth = server.docsAuth !== undefined && blocksOf(d, 'openapi').length > 0 ? server.docsAuth : server.auth;
  const auth = authAttr ? (readGuardList(authAttr, s, env.guards) ?? []) : defaultAuth;

  const requestBlock = blocksOf(d, 'request')[0];
  const declared = requestBlock ? decodeRequest(requestBlock, s, env.schemas) : { path: [], query: [], headers: [] };
  const request = label ? withPathParams(declared, label, s, requestBlock, block.labelRanges[0]!) : declared;

  const docsBlock = blocksOf(d, 'openapi')[0];
  const rateLimit = decodeEndpointRateLimit(d.attrs.get('rate_limit'), blocksOf(d, 'rate_limit')[0], s, server, docsBlock !== undefined);
  const cors = decodeEndpointCors(d.attrs.get('cors'), blocksOf(d, 'cors')[0], s, server);
  const representation = decodeEndpointRepresentation(
    { compression: d.attrs.get('compression'), etag: d.attrs.get('etag'), cacheControl: d.attrs.get('cache_control') },
    label?.method,
    s,
    server,
  );
  const pipelineBlock = blocksOf(d, 'pipeline')[0];
  const stepBlocks = d.blocks.filter((b) => env.steps.has(b.type));
  if (dialect === 'route' && pipelineBlock) {
    s.error('Pipeline in a route', pipelineBlock.typeRange, {
      detail: 'A route lists its steps directly in the route block; pipeline { ... } belongs to endpoint blocks.',
    });
  }
  if (dialect === 'endpoint') {
    for (const b of stepBlocks) {
      s.error('Step outside pipeline', b.typeRange, {
        detail: `In an endpoint block, steps go inside pipeline { ... }; write steps directly only in a route block.`,
      });
    }
  }

  let steps: StepSpecBase[] = [];
  let docs: DocsConfig | undefined;
  let stepSource: readonly Block[] = [];
  let rejectedSteps = 0;
  let stepScope = s;
  if (docsBlock) {
    const other = pipelineBlock ?? stepBlocks[0];
    if (other) {
      s.error('Conflicting endpoint kinds', other.typeRange, {
        detail: 'An endpoint either serves documentation (an openapi block) or runs steps, not both.',
      });
    }
    docs = decodeDocs(docsBlock, s, env.files);
    if (label && label.method !== 'GET') {
      s.error('Invalid documentation endpoint', block.labelRanges[0], {
        detail: `A documentation endpoint answers GET; this one is declared for ${label.method}.`,
      });
    }
  } else if (dialect === 'endpoint') {
    if (!pipelineBlock) {
      s.error('Missing pipeline block', blockHeader(block), {
        detail: 'An endpoint needs a `pipeline { ... }` block with its steps, or an `openapi { ... }` block.',
      });
    } else {
      stepScope = s.enter(pipelineBlock);
      const decodedPipeline = decodeBody(pipelineBlock.body, bodies.pipeline, stepScope, pipelineBlock);
      stepSource = decodedPipeline.blocks;
      rejectedSteps = decodedPipeline.rejectedBlocks;
    }
  } else {
    stepSource = stepBlocks;
    rejectedSteps = d.rejectedBlocks;
  }
  // Blocks reported above and never lowered (a misspelled step kind, a step outside the pipeline)
  // count as failures: a flow check would only echo them.
  const ignored = rejectedSteps + (dialect === 'endpoint' ? stepBlocks.length : 0) + (dialect === 'route' && pipelineBlock ? 1 : 0);
  const failures = { count: ignored };
  if (stepSource.length > 0) steps = lowerSteps(stepSource, stepScope, env, 'pipeline', failures);
  const after = decodeAfterResponse(blocksOf(d, 'after_response')[0], docsBlock !== undefined, s, env, bodies.pipeline, failures);

  if (!label) return undefined;
  const base = {
    id: `${label.method} ${label.path}`,
    method: label.method,
    path: label.path,
    segments: label.segments,
    pathParams: label.pathParams,
    ...(label.catchAll ? { catchAll: label.catchAll } : {}),
    dialect,
    ...(description !== undefined ? { description } : {}),
    ...(summary !== undefined ? { summary } : {}),
    tags,
    auth,
    ...(rateLimit !== undefined ? { rateLimit } : {}),
    ...(cors !== undefined ? { cors } : {}),
    ...(representation !== undefined ? { representation } : {}),
    request,
    range: block.range,
    labelRange: block.labelRanges[0]!,
    blockPath: s.path,
  };
  if (docsBlock) {
    if (!docs) return undefined;
    return { model: { ...base, kind: 'docs', docs }, label, scope: s, declaredSteps: new Set(), bodyRange: blockHeader(block), checkFlow: false };
  }
  return {
    model: { ...base, kind: 'pipeline', steps, statuses: [], failureStatuses: [], responses: [], ...(after ? { after: after.steps } : {}) },
    label,
    scope: stepScope,
    declaredSteps: declaredStepNames([...stepSource, ...(after?.blocks ?? [])], env.steps),
    bodyRange: pipelineBlock ? blockHeader(pipelineBlock) : blockHeader(block),
    // Without a pipeline, or with a step that failed to lower, "no response" would only echo another error.
    checkFlow: (dialect === 'route' || pipelineBlock !== undefined) && failures.count === 0,
  };
}

/**
 * `after_response { <steps> }`: steps run once the request has been answered (no respond, no
 * stream: the step kinds refuse the place). Not on a documentation endpoint, which has no pipeline.
 */
function decodeAfterResponse(
  block: Block | undefined,
  docs: boolean,
  scope: DecodeScope,
  env: DecodeEnv,
  body: BodySchema,
  failures: { count: number },
): { steps: StepSpecBase[]; blocks: readonly Block[] } | undefined {
  if (block === undefined) return undefined;
  if (docs) {
    scope.error('Unexpected after_response block', block.typeRange, {
      detail: 'A documentation endpoint runs no steps, so nothing can run after its response.',
    });
    return undefined;
  }
  const inner = scope.enter(block);
  const decoded = decodeBody(block.body, body, inner, block);
  failures.count += decoded.rejectedBlocks;
  return { steps: lowerSteps(decoded.blocks, inner, env, 'after_response', failures), blocks: decoded.blocks };
}

/**
 * Every `{name}` of the pattern is a path parameter, declared or not (undeclared ones are required
 * strings); a declared path field that the pattern lacks is an error. Order follows the pattern.
 */
function withPathParams(request: RequestSpec, label: RouteLabel, scope: DecodeScope, requestBlock: Block | undefined, labelRange: Range): RequestSpec {
  const byName = new Map(request.path.map((f) => [f.name, f]));
  for (const f of request.path) {
    if (!label.pathParams.includes(f.name)) {
      const suggestion = didYouMean(f.name, label.pathParams);
      scope.error('Path parameter not in path', f.range ?? (requestBlock ? blockHeader(requestBlock) : undefined), {
        detail: `"${f.name}" is declared as a path parameter, but "${label.path}" has no {${f.name}}.`,
        ...(suggestion ? { suggestion } : {}),
      });
    }
  }
  const path: FieldSpec[] = label.pathParams.map(
    // An undeclared parameter is declared by the route label: src/schema's issues about it point there.
    (name) => byName.get(name) ?? { name, type: { kind: 'string' }, required: true, hasDefault: false, range: labelRange },
  );
  return { ...request, path };
}

/**
 * Labels of every step block that names a step (a label rule of `["name"]`: stream's label is its
 * format, respond has none), nested step blocks (parallel, transaction) included.
 */
function declaredStepNames(blocks: readonly Block[], steps: StepDecoders, out = new Set<string>()): Set<string> {
  for (const b of blocks) {
    const decoder = steps.get(b.type);
    if (!decoder) continue;
    if (decoder.blocks[b.type]!.labels?.[0] === 'name' && b.labels[0] !== undefined) out.add(b.labels[0]);
    declaredStepNames(
      b.body.items.filter((i): i is Block => i.kind === 'Block'),
      steps,
      out,
    );
  }
  return out;
}
