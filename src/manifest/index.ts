/**
 * The manifest language: discovery of files, decoding of blocks into resolved shapes (both dialects).
 *
 * Two audiences read this folder through this file: src/model (decode a whole manifest, then check
 * it) and the step kinds' decoders in src/steps/<kind>/lower.ts (the toolkit below: body schemas,
 * value readers, references, catch blocks). Step kinds reach the manifest only as injected
 * `StepDecoder`s; nothing here imports them.
 */
export { decodeManifest, type DecodedManifest } from './decode.js';
export { editedSources, forLoading, hasArgumentCommas, hclapiFindings, repairCommas, type Finding as CompatFinding } from './compat/index.js';
export type { DecodedEndpoint } from './endpoint.js';
export { discoverManifestFiles } from './discover.js';
export type { FileAccess } from './files.js';
export { readContainedFile, resolveFile } from './files.js';
export { MAX_MANIFEST_FILE_BYTES, readRegularFile } from './read.js';
export { DecodeScope } from './scope.js';
export { isSqlKind, SQL_KINDS, type ConnectionKind, type SqlKind } from './connection-kind.js';
export type { BodyResponse, CatchSpec, ConnectionRef, Expr, StepResponse, StepSpecBase, StreamResponse } from './step-types.js';
export * from './types.js';

// The step decoders' contract and the decoding loop.
export {
  stepDecoderTable,
  type DecodeEnv,
  type LowerContext,
  type StepDecoder,
  type StepDecoders,
  type StepPlace,
} from './steps.js';

// The toolkit of a step kind's `lower`.
export { blockHeader, blocksOf, decodeBody, where, type AttrRule, type BlockRule, type BodySchema, type DecodedBody } from './body.js';
export { CATCH_RULE, decodeCatches } from './catch.js';
export { ITEM_ROOTS, evaluateCompiled } from './expr.js';
export { fieldSites, staticKey } from './field.js';
export { readConnection } from './refs.js';
export { METHODS } from './route-label.js';
export { decodeType } from './type-expr.js';
export {
  checkStatus,
  readBool,
  readChoice,
  readDuration,
  readExpr,
  readInt,
  readSize,
  readString,
  readStringList,
  type ValueKind,
} from './values.js';
