/**
 * A small, strict command-line parser shared by every command.
 *
 * Strict on purpose: an unknown flag or a missing value is a `UsageError` (exit 2 with the usage),
 * never silently ignored, so a typo such as `--prot 80` cannot start a server on the wrong port.
 * Accepted spellings: `--name value`, `--name=value`, `-c value`, `-c=value`, `-cvalue`; `--` ends
 * the flags.
 */

export interface FlagSpec {
  /** Long name without dashes (`config`). */
  readonly name: string;
  /** One-letter alias without dash (`c`). */
  readonly short?: string;
  /** Whether the flag takes a value (`--port 80`) or is a switch (`--watch`). */
  readonly value: boolean;
}

export interface ParsedArgs {
  /** Flag values by long name; switches are `true`. The last occurrence wins. */
  readonly flags: Readonly<Record<string, string | true>>;
  /** Every value of each flag given more than once or not (`--database a=... --database b=...`), in order. */
  readonly values?: Readonly<Record<string, readonly string[]>>;
  readonly positionals: readonly string[];
}

/** A mistake in how the command was called: reported with the usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function parseArgs(argv: readonly string[], specs: readonly FlagSpec[]): ParsedArgs {
  const flags: Record<string, string | true> = {};
  const values: Record<string, string[]> = {};
  const positionals: string[] = [];
  const byLong = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short!, s]));

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    let spec: FlagSpec | undefined;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
      inline = eq >= 0 ? arg.slice(eq + 1) : undefined;
      spec = byLong.get(name);
      if (!spec) throw new UsageError(`unknown flag --${name}`);
    } else if (arg.startsWith('-') && arg.length > 1) {
      spec = byShort.get(arg[1]!);
      if (!spec) throw new UsageError(`unknown flag ${arg.slice(0, 2)}`);
      const rest = arg.slice(2);
      inline = rest === '' ? undefined : rest.startsWith('=') ? rest.slice(1) : rest;
    } else {
      positionals.push(arg);
      continue;
    }
    const shown = arg.startsWith('--') ? `--${spec.name}` : `-${spec.short}`;
    if (!spec.value) {
      if (inline !== undefined) throw new UsageError(`flag ${shown} takes no value`);
      flags[spec.name] = true;
      continue;
    }
    if (inline === undefined) {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('-') && next !== '-')) throw new UsageError(`flag ${shown} needs a value`);
      inline = next;
      i++;
    }
    flags[spec.name] = inline;
    (values[spec.name] ??= []).push(inline);
  }
  return { flags, values, positionals };
}

/** The string value of a flag, or undefined when absent. */
export function flagString(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags[name];
  return typeof v === 'string' ? v : undefined;
}

/** Every value given to a flag, in order (none when absent). */
export function flagStrings(args: ParsedArgs, name: string): readonly string[] {
  return args.values?.[name] ?? [];
}

/** A TCP port (0 lets the system choose one). */
export function parsePort(text: string, from: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new UsageError(`${from}: "${text}" is not a port number (0-65535)`);
  return Number(text);
}
