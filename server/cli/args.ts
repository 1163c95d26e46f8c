// Reading a gmw command line: positional arguments and `--name value` / `--name=value` / `--flag` options, checked
// against what the command accepts, so a typo is a one-line usage error instead of being silently ignored.

/** Exit codes scripts can rely on (documented in `gmw --help` and the README). */
export const EXIT = {
  ok: 0,
  /** The app refused the request; its sentence is on stderr. */
  refused: 1,
  /** Unknown command or option, missing or extra argument. */
  usage: 2,
  /** A file could not be read or written. */
  file: 3,
  /** The database could not be opened. */
  database: 4,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A mistake on the command line: one sentence, then the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A file that cannot be read or written: one sentence, exit code 3. */
export class FileError extends Error {
  override name = 'FileError';
}

/** A database that cannot be opened: one sentence, exit code 4. */
export class DatabaseError extends Error {
  override name = 'DatabaseError';
}

export interface OptionSpec {
  name: string;
  /** The value's placeholder (`<file>`); absent for a flag. */
  value?: string;
  help: string;
}

export interface ParsedArgs {
  positional: string[];
  /** Option values by name; flags are `true`. */
  options: Map<string, string | true>;
}

/** Options every command takes. */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { name: 'db', value: '<path>', help: 'the database file (default: $GMW_DB, else the data folder)' },
  { name: 'progress', help: 'progress lines on stderr even when it is not a terminal' },
  { name: 'help', help: 'this help' },
];

/**
 * Splits `args` (the words after the command) into positional arguments and options. `--` ends the options;
 * `-h` is `--help`. Unknown options, missing values, values given to flags and repeated options are usage errors.
 */
export function parseArgs(args: readonly string[], accepted: readonly OptionSpec[], command: string): ParsedArgs {
  const specs = new Map([...GLOBAL_OPTIONS, ...accepted].map((spec) => [spec.name, spec]));
  const positional: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (arg === '-h') {
      options.set('help', true);
      continue;
    }
    if (!arg.startsWith('-') || arg === '-' || /^-\d/.test(arg)) {
      positional.push(arg);
      continue;
    }
    const match = /^--([a-z][a-z-]*)(?:=(.*))?$/s.exec(arg);
    const spec = match ? specs.get(match[1]!) : undefined;
    if (!match || !spec) throw new UsageError(`${command} has no option ${arg.split('=')[0]!.slice(0, 40)}.`);
    if (options.has(spec.name)) throw new UsageError(`--${spec.name} is given twice.`);
    const inline = match[2];
    if (!spec.value) {
      if (inline !== undefined) throw new UsageError(`--${spec.name} takes no value.`);
      options.set(spec.name, true);
      continue;
    }
    const value = inline ?? args[i + 1];
    if (value === undefined || value === '' || (inline === undefined && value.startsWith('--'))) throw new UsageError(`--${spec.name} needs ${spec.value}.`);
    if (inline === undefined) i += 1;
    options.set(spec.name, value);
  }
  return { positional, options };
}

/** The value of an option that takes one, or undefined. */
export function optionValue(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.options.get(name);
  return typeof value === 'string' ? value : undefined;
}
