/**
 * `svc check -c DIR [--diagnostics=json]`: load and check a manifest without serving it.
 * Prints every diagnostic (HCL-style with source snippets on stderr, or one JSON document on
 * stdout), then a one-line summary; exits 0 when there is no error, 1 otherwise, 2 when called
 * wrongly (src/cli/io.ts). A bad manifest, or a bad command line, never ends in a stack trace.
 */
import { messageOf } from '../../graph/index.js';
import { diagnosticToJSON, renderDiagnostics } from '../diag/index.js';
import type { ServiceModel } from '../model/index.js';
import { sqlStatements } from '../steps/index.js';
import { flagString, flagStrings, parseArgs, UsageError, type FlagSpec, type ParsedArgs } from './args.js';
import { loadService } from './boot.js';
import { countEndpoints, describeEndpoints, plural } from './endpoint-count.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliIO } from './io.js';
import { checkQueriesOnDatabases, databaseTargets } from './query-check.js';

const USAGE = 'usage: svc check -c <manifest_dir> [--diagnostics=text|json] [--database [<connection>=]<url>]...\n';

interface CheckArgs {
  readonly dir: string;
  readonly json: boolean;
  /** `--database` values: the queries are checked against these databases (./query-check.ts). */
  readonly databases: readonly string[];
}

const FLAGS: readonly FlagSpec[] = [
  { name: 'config', short: 'c', value: true },
  { name: 'diagnostics', value: true },
  { name: 'database', value: true },
];

/** The command line, or what is wrong with it (reported with the usage, exit 2). */
function checkArgs(argv: readonly string[]): CheckArgs | string {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs(argv, FLAGS);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  if (parsed.positionals.length > 0) return `unknown argument "${parsed.positionals[0]}"`;
  const format = flagString(parsed, 'diagnostics') ?? 'text';
  if (format !== 'text' && format !== 'json') return `--diagnostics must be text or json, not "${format}"`;
  const dir = flagString(parsed, 'config');
  if (dir === undefined) return 'missing -c <manifest_dir>';
  return { dir, json: format === 'json', databases: flagStrings(parsed, 'database') };
}

export async function checkCommand(args: string[], io: CliIO): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    io.stdout.write(USAGE);
    return EXIT_OK;
  }
  const parsed = checkArgs(args);
  if (typeof parsed === 'string') {
    io.stderr.write(`svc check: ${parsed}\n${USAGE}`);
    return EXIT_USAGE;
  }
  try {
    // Compiled as `svc serve` compiles it, so `check` reports everything `serve` would refuse.
    const loaded = await loadService(parsed.dir);
    const { sources } = loaded;
    let diagnostics = loaded.diagnostics;
    let model = loaded.booted?.model;
    let checkedQueries: number | undefined;
    if (model && parsed.databases.length > 0) {
      let targets: Map<string, string>;
      try {
        targets = databaseTargets(parsed.databases, model);
      } catch (e) {
        if (!(e instanceof UsageError)) throw e;
        io.stderr.write(`svc check: ${e.message}\n${USAGE}`);
        return EXIT_USAGE;
      }
      const checked = await checkQueriesOnDatabases(model, targets);
      diagnostics = [...diagnostics, ...checked.diagnostics];
      checkedQueries = sqlStatements(model).filter((s) => targets.has(`${s.kind}.${s.connection}`)).length;
      if (checked.diagnostics.some((d) => d.severity === 'error')) model = undefined;
    }
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = diagnostics.length - errors;
    if (parsed.json) {
      io.stdout.write(
        JSON.stringify(
          {
            ok: errors === 0,
            errors,
            warnings,
            diagnostics: diagnostics.map(diagnosticToJSON),
            ...(model ? { summary: counts(model) } : {}),
          },
          null,
          2,
        ) + '\n',
      );
    } else {
      if (diagnostics.length > 0) io.stderr.write(renderDiagnostics(diagnostics, sources) + '\n');
      const queries = checkedQueries === undefined ? '' : `, ${checkedQueries} ${checkedQueries === 1 ? 'query' : 'queries'} checked on the database`;
      if (model) io.stdout.write(`ok: ${describe(model)}${queries}${warnings ? `, ${plural(warnings, 'warning')}` : ''}\n`);
      else io.stderr.write(`${plural(errors, 'error')}${warnings ? `, ${plural(warnings, 'warning')}` : ''} in ${parsed.dir}\n`);
    }
    return model ? EXIT_OK : EXIT_FAILURE;
  } catch (e) {
    // A bug of ours, not of the manifest: say so in one line; the stack is for SVC_DEBUG.
    io.stderr.write(`svc check: internal error: ${messageOf(e)}\n`);
    if (io.env.SVC_DEBUG && e instanceof Error && e.stack) io.stderr.write(e.stack + '\n');
    return EXIT_FAILURE;
  }
}

function counts(m: ServiceModel): Record<string, number> {
  const endpoints = countEndpoints(m);
  return {
    endpoints: endpoints.total,
    documentation_endpoints: endpoints.documentation,
    schemas: m.schemas.size,
    guards: m.auths.size,
    connections: m.connections.size,
  };
}

function describe(m: ServiceModel): string {
  const c = counts(m);
  const [endpoints, documentation] = describeEndpoints(m);
  return [
    documentation === undefined ? endpoints : `${endpoints} (${documentation})`,
    plural(c.schemas!, 'schema'),
    plural(c.guards!, 'guard'),
    plural(c.connections!, 'connection'),
  ].join(', ');
}
