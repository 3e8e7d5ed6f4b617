/** Usage texts: one per command, and the overview `svc --help` prints. */

export interface CommandHelp {
  readonly name: string;
  readonly synopsis: string;
  readonly summary: string;
  readonly options: readonly (readonly [string, string])[];
}

export const COMMANDS: readonly CommandHelp[] = [
  {
    name: 'serve',
    synopsis: 'svc serve -c DIR [--host H] [--port P] [--watch] [--workers N|auto] [--diagnostics=json]',
    summary: 'Starts the HTTP server the manifest in DIR declares.',
    options: [
      ['-c, --config DIR', 'manifest directory (every *.hcl file below it)'],
      ['--host H', 'address to bind; default: $SVC_HOST, $HOST, the server block, 127.0.0.1'],
      ['--port P', 'port to bind (0 picks a free one); default: $SVC_PORT, $PORT, the server block, 8080'],
      ['--watch', 'reload the manifest when its files change (SIGHUP reloads it in any case)'],
      ['--workers N|auto', 'serve from N processes (auto: one per core); default: the server block, 1'],
      ['--log-level L', 'trace, debug, info, warn, error, fatal or silent; default: $LOG_LEVEL, the server block, info'],
      ['--log-format F', 'json (default: one JSON object per line) or pretty (human-readable, for a terminal)'],
      ['--diagnostics=json', 'print manifest errors as JSON instead of text'],
    ],
  },
  {
    name: 'check',
    synopsis: 'svc check -c DIR [--diagnostics=json] [--database [NAME=]URL]...',
    summary: 'Checks the manifest in DIR and prints every diagnostic; starts nothing.',
    options: [
      ['-c, --config DIR', 'manifest directory'],
      ['--diagnostics=json', 'print diagnostics as JSON instead of text'],
      ['--database [NAME=]URL', 'prepare every query on this database (NAME: its connection; pglite: for one in memory); nothing is run or kept'],
    ],
  },
  {
    name: 'graph',
    synopsis: 'svc graph -c DIR [--endpoint "METHOD /path"] [--diagnostics=json]',
    summary: "Prints the endpoints' dataflow graphs as Graphviz DOT (pipe it into `dot -Tsvg`).",
    options: [
      ['-c, --config DIR', 'manifest directory'],
      ['--endpoint "METHOD /path"', 'draw only this endpoint'],
      ['--diagnostics=json', 'print manifest errors as JSON instead of text'],
    ],
  },
  {
    name: 'openapi',
    synopsis: 'svc openapi -c DIR [-o FILE] [--format=json|yaml]',
    summary: 'Writes the OpenAPI 3.1 document compiled from the manifest (JSON on standard output by default).',
    options: [
      ['-c, --config DIR', 'manifest directory'],
      ['-o, --output FILE', 'write to FILE instead of standard output'],
      ['--format=json|yaml', 'output format; default json'],
      ['--diagnostics=json', 'print manifest errors as JSON instead of text'],
      ['--database [NAME=]URL', "type the sql rows from the columns this database describes (as svc check's)"],
    ],
  },
  {
    name: 'fmt',
    synopsis: 'svc fmt [-c DIR] [--check] [--diff] [--fix] [FILE...]',
    summary:
      'Rewrites manifest files in the canonical layout and prints the names of those it changed. Only whitespace changes; a file that does not parse is left as it is.',
    options: [
      ['-c, --config DIR', 'format the manifest in DIR (every *.hcl file below it, as serve reads them)'],
      ['FILE', 'format this file (a directory: every *.hcl file below it); - reads standard input, writes standard output'],
      ['--check', 'rewrite nothing; print the files that are not canonical and exit 1 if there is one'],
      ['--diff', 'also print the changes as a unified diff'],
      ['--fix', "first rewrite a manifest written for hclapi in svc's own spellings (every SVC_COMPAT_ warning of svc check)"],
      ['--diagnostics=json', 'print parse errors as JSON instead of text'],
    ],
  },
  {
    name: 'init',
    synopsis: 'svc init [DIR] [--title T]',
    summary:
      'Writes a new project into DIR (default: here): a CRUD API of one table on the embedded PostgreSQL, its migration, OpenAPI document and page, a test and a README. Never overwrites a file.',
    options: [
      ['DIR', 'the project directory, created if needed; it may exist but must hold none of the files'],
      ['--title T', "the API's title in its OpenAPI document; default: from the directory's name"],
    ],
  },
  {
    name: 'docs',
    synopsis: 'svc docs [--host H] [--port P]',
    summary: "Serves svc's manual (the pages under docs/) as HTML on a local port, until Ctrl-C.",
    options: [
      ['--host H', 'address to bind; default 127.0.0.1'],
      ['--port P', 'port to bind (0 picks a free one); default 8090'],
    ],
  },
  {
    name: 'starlark',
    synopsis: 'svc starlark FILE [--ctx JSON]',
    summary: 'Runs a Starlark file; with --ctx, calls execute(ctx) and prints the result as JSON.',
    options: [
      ['--ctx JSON', 'the ctx value passed to execute()'],
      ['--max-steps N', 'execution-step budget of each call; default 1000000'],
      ['--timeout-ms N', 'wall-clock limit of each call in milliseconds; default 1000'],
    ],
  },
];

export function commandHelp(name: string): CommandHelp | undefined {
  return COMMANDS.find((c) => c.name === name);
}

export function overview(): string {
  // Synopsis and summary on separate lines: a synopsis is long enough to fill a terminal line.
  return [
    'svc: a manifest-driven HTTP API server',
    '',
    'Usage:',
    ...COMMANDS.flatMap((c) => [`  ${c.synopsis}`, `      ${firstSentence(c.summary)}`]),
    '  svc --version',
    '      Prints the version.',
    '  svc --help [COMMAND]',
    "      Prints this help, or a command's.",
    '',
    'Run `svc COMMAND --help` for the options of a command.',
    '',
  ].join('\n');
}

export function commandUsage(help: CommandHelp): string {
  const width = Math.max(...help.options.map(([flag]) => flag.length));
  return [
    `Usage: ${help.synopsis}`,
    '',
    help.summary,
    '',
    'Options:',
    ...help.options.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
    `  ${'-h, --help'.padEnd(width)}  print this help`,
    '',
  ].join('\n');
}

function firstSentence(text: string): string {
  const dot = text.indexOf('. ');
  return dot < 0 ? text : text.slice(0, dot + 1);
}
