// gmw: the app's handler table from the command line. Finds the command, checks its arguments, opens the app on
// the database (--db, else GMW_DB, else the data folder), runs it, and turns what happened into an exit code.
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HANDLER_NAMES } from '../../core/api/names.ts';
import { markerPath } from '../../db/health.ts';
import { sidecarsMadeFrom } from '../../db/read-only.ts';
import type { AppService } from '../app.ts';
import { sentenceFor } from '../failure-sentences.ts';
import { DB_FILE, defaultDataDir, resolveDatabasePath } from '../paths.ts';
import { DatabaseError, EXIT, FileError, GLOBAL_OPTIONS, UsageError, optionValue, parseArgs, type ExitCode, type OptionSpec } from './args.ts';
import { COMMANDS, RefusedError, openExistingDatabase, rawRequest, type Command, type RunContext } from './commands.ts';
import { Progress, fileReason, type CliIo } from './output.ts';
import { loadNotationLibrary } from '../../core/dice/dice.ts';

declare const __GMW_VERSION__: string;
/** Set by the build; `dev` when run from source (tests). */
export const VERSION = typeof __GMW_VERSION__ === 'string' ? __GMW_VERSION__ : 'dev';

const EXIT_CODES = `Exit codes:
  0  done
  1  refused by the app (its reason is on stderr)
  2  usage error: unknown command or option, missing or extra argument
  3  file problem: a file cannot be read or written
  4  the database cannot be opened (missing, locked, or not a GM Workstation database)`;

function optionLines(options: readonly OptionSpec[]): string {
  const label = (o: OptionSpec) => (o.name === 'help' ? '-h, --help' : `--${o.name}${o.value ? ` ${o.value}` : ''}`);
  const width = Math.max(...options.map((o) => label(o).length));
  return options.map((o) => `  ${label(o).padEnd(width)}  ${o.help}`).join('\n');
}

/** Request names wrapped to the terminal's usual width. */
function requestLines(): string {
  const lines: string[] = [];
  let line = ' ';
  for (const name of HANDLER_NAMES) {
    if (line.length + name.length + 1 > 110) {
      lines.push(line);
      line = ' ';
    }
    line += ` ${name}`;
  }
  return [...lines, line].join('\n');
}

export function usage(env: NodeJS.ProcessEnv = process.env): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length + (c.positional.min ? c.synopsis.split(' ')[0]!.length + 1 : 0)));
  const commandLine = (c: Command) => `  ${`${c.name}${c.positional.min ? ` ${c.synopsis.split(' ')[0]}` : ''}`.padEnd(width)}  ${c.summary}`;
  return `gmw ${VERSION}: GM Workstation from the command line.

Usage: gmw <command> [arguments] [options]

Commands:
${COMMANDS.map(commandLine).join('\n')}
  ${'<area:verb>'.padEnd(width)}  any request of the app with a JSON input, e.g. gmw campaigns:list '{}'

Options for every command:
${optionLines(GLOBAL_OPTIONS)}
  Default database here: ${join(defaultDataDir(env), DB_FILE)}

${EXIT_CODES}

Data (lists, exports, ids, JSON) goes to stdout; messages and progress go to stderr.
Run gmw <command> --help for a command's options.

Requests:
${requestLines()}`;
}

export function commandUsage(command: Command): string {
  return `Usage: gmw ${command.name} ${command.synopsis}

${command.details}

Options:
${optionLines([...command.options, ...GLOBAL_OPTIONS])}

${EXIT_CODES}`;
}

/** The command word: the first argument that is neither an option nor the value of --db. */
function findCommand(argv: readonly string[]): { word: string | undefined; rest: string[] } {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--db') {
      i += 1;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return { word: arg, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
  }
  return { word: undefined, rest: [...argv] };
}

/** Runs gmw with `argv` (the words after `gmw`) and returns its exit code; never throws. */
export async function main(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { word, rest } = findCommand(argv);
  const wantsHelp = rest.includes('--help') || rest.includes('-h');
  if (word === undefined || word === 'help') {
    const about = word === 'help' ? COMMANDS.find((c) => c.name === rest.find((r) => !r.startsWith('-'))) : undefined;
    if (word === 'help' || wantsHelp) {
      io.stdout(`${about ? commandUsage(about) : usage(io.env)}\n`);
      return EXIT.ok;
    }
    if (rest.includes('--version')) {
      io.stdout(`${VERSION}\n`);
      return EXIT.ok;
    }
    io.stderr('Name a command.');
    io.stderr('');
    io.stderr(usage(io.env));
    return EXIT.usage;
  }

  const command = COMMANDS.find((c) => c.name === word) ?? (word.includes(':') ? rawRequest(word) : undefined);
  if (!command) {
    io.stderr(`Unknown command “${word.slice(0, 60)}”.`);
    io.stderr('');
    io.stderr(usage(io.env));
    return EXIT.usage;
  }

  let app: AppService | undefined;
  try {
    const args = parseArgs(rest, command.options, `gmw ${command.name}`);
    if (args.options.has('help')) {
      io.stdout(`${commandUsage(command)}\n`);
      return EXIT.ok;
    }
    if (args.positional.length < command.positional.min) throw new UsageError(command.positional.missing);
    if (args.positional.length > command.positional.max) {
      throw new UsageError(`gmw ${command.name} takes ${command.positional.max === 0 ? 'no arguments' : `one argument`}; “${args.positional[command.positional.max]!.slice(0, 40)}” is one too many.`);
    }
    const dbOption = optionValue(args, 'db');
    const databasePath = resolve(io.cwd, resolveDatabasePath(dbOption ? ['--db', dbOption] : [], io.env, join(defaultDataDir(io.env), DB_FILE)));
    const ctx: RunContext = {
      io,
      progress: new Progress(io, io.stderrIsTTY || args.options.has('progress')),
      databasePath,
      async app() {
        if (app) return app;
        const takeAwaySidecars = sidecarsMadeFrom(databasePath);
        const creating = !existsSync(databasePath);
        try {
          // A file that is there must be ours: another program's SQLite file is never migrated into a campaign
          // database. A file the marker says was here, now missing or empty, is damage: the health check says so.
          const present = existsSync(databasePath) && statSync(databasePath).size > 0;
          const lost = !present && existsSync(markerPath(databasePath));
          if ((command.database === 'existing' || present) && !lost) openExistingDatabase(databasePath).close();
          // Loaded on first use, so help and usage errors answer at once without loading every ruleset.
          // With the notation library: a command that rolls never meets a notation refused while it loads.
          const [{ openApp }] = await Promise.all([import('../app.ts'), loadNotationLibrary()]);
          app = openApp({ databasePath, transport: 'cli', version: VERSION, lock: 'cli', dataFolder: defaultDataDir(io.env) });
        } catch (error) {
          takeAwaySidecars();
          if (error instanceof DatabaseError) throw error;
          // The app's own refusals (locked, damaged, newer) and a read-only or full disk are one sentence as they are.
          throw new DatabaseError(sentenceFor(error, databasePath) ?? `Cannot open the database at ${databasePath}: ${fileReason(error)}.`);
        }
        if (creating) io.stderr(`Created a new database at ${databasePath}.`);
        return app;
      },
    };
    await command.run(ctx, args);
    return EXIT.ok;
  } catch (error) {
    return report(io, command, error);
  } finally {
    app?.close();
  }
}

/**
 * A refused database leaves its folder as it was: the -wal and -shm that opening it made (a read-only connection
 * leaves them behind, empty) are taken away. Only when neither was there before and the -wal holds nothing: a
 * -wal another process or a crash left is never touched.
 */
/** One sentence on stderr (with the usage after a usage error) and the exit code for it. */
function report(io: CliIo, command: Command, error: unknown): ExitCode {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof UsageError) {
    io.stderr(message);
    io.stderr('');
    io.stderr(commandUsage(command));
    return EXIT.usage;
  }
  if (error instanceof RefusedError || error instanceof FileError || error instanceof DatabaseError) {
    io.stderr(message);
    return error instanceof RefusedError ? EXIT.refused : error instanceof FileError ? EXIT.file : EXIT.database;
  }
  // Not a refusal but a failure of gmw itself: still one line, with the generic exit code.
  io.stderr(`gmw ${command.name} failed unexpectedly: ${message}`);
  return EXIT.refused;
}
