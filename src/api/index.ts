/**
 * svc as a library: the public API (the package's `exports`, ../index.ts). Load and check a
 * manifest, serve it on a port or under a prefix of a Fastify app, and define step kinds of your
 * own. Nothing else of the tree is public: what is not exported here may change in any release.
 */
export {
  defineStep,
  type CustomStep,
  type JsonSchema,
  type StepAttribute,
  type StepAttributeType,
  type StepAttributeValues,
  type StepCheckReport,
  type StepCheckReportOptions,
  type StepCode,
  type StepFailureStatus,
  type StepOptions,
  type StepRunContext,
} from '../steps/index.js';
export type { ManifestDiagnostic } from './diagnostics.js';
export { loadService, Service, type LoadOptions, type ServiceLoad } from './load.js';
export { createServer, type CreateServerOptions, type ListenAddress, type LogOptions, type SvcServer } from './server.js';
export { svcPlugin, type SvcPluginOptions } from './plugin.js';
