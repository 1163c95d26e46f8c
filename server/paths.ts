// Where the one SQLite file lives.
import { homedir } from 'node:os';
import { join } from 'node:path';

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
