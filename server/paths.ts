// Where the one SQLite file lives.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

export const DB_ENV = 'GMW_DB';
export const DB_FILE = 'gm-workstation.sqlite';

/** `--db <path>` (or `--db=<path>`), else the GMW_DB environment variable, else the default. */
export function resolveDatabasePath(argv: readonly string[], env: NodeJS.ProcessEnv, defaultPath: string): string {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--db' && argv[i + 1]) return argv[i + 1]!;
    if (arg.startsWith('--db=') && arg.length > 5) return arg.slice(5);
  }
  const fromEnv = env[DB_ENV];
  return fromEnv && fromEnv.trim() ? fromEnv : defaultPath;
}

/** The platform's per-user data folder outside Electron (web mode and the CLI): XDG on Linux. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env['APPDATA'] || join(homedir(), 'AppData', 'Roaming'), 'GM Workstation');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'GM Workstation');
  return join(env['XDG_DATA_HOME'] || join(homedir(), '.local', 'share'), 'gm-workstation');
}

/** A database's folder that is missing and will not be created; its message is the sentence to show. */
export class MissingFolderError extends Error {
  override name = 'MissingFolderError';
  /** Its message is a sentence for the GM (server/failure-sentences.ts): shown as it is by every transport. */
  readonly gmSentence = true;
}

/**
 * Makes sure the database's folder exists before anything is written there (the lock file first) and says whether
 * it created it. The default data folder is created with its parents, readable by its user only (0700, as the XDG
 * base directory spec asks). A folder named with --db or GMW_DB is created when its own parent exists, so
 * `--db ~/campaigns/new.sqlite` works; a path missing more than that (a typo higher up) is refused with a sentence
 * rather than growing a tree of folders nobody asked for.
 */
export function ensureDatabaseFolder(databasePath: string, dataFolder?: string): boolean {
  if (databasePath === ':memory:') return false;
  const folder = dirname(resolve(databasePath));
  if (existsSync(folder)) return false;
  if (dataFolder && folder === resolve(dataFolder)) {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    return true;
  }
  const parent = dirname(folder);
  if (!existsSync(parent) || !statSync(parent).isDirectory()) {
    throw new MissingFolderError(`Neither the folder ${folder} nor the folder ${parent} exists, so the database ${basename(databasePath)} cannot be created there; create the folder first, or choose another place with --db.`);
  }
  mkdirSync(folder);
  return true;
}
