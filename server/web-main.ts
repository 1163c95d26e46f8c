// `npm run web` (and `npm start` where the desktop window cannot open): web mode on 127.0.0.1.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RecoveryStatus } from '../core/api/contract.ts';
import { openApp } from './app.ts';
import { DB_FILE, defaultDataDir, resolveDatabasePath } from './paths.ts';
import { startWebServer } from './web.ts';

declare const __GMW_VERSION__: string;

function portFrom(argv: readonly string[]): number {
  const at = argv.indexOf('--port');
  const value = at >= 0 ? Number(argv[at + 1]) : 0;
  return Number.isInteger(value) && value >= 0 && value < 65536 ? value : 0;
}

export async function runWebMode(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const dataFolder = defaultDataDir();
  const databasePath = resolveDatabasePath(argv, process.env, join(dataFolder, DB_FILE));
  const firstStart = !existsSync(databasePath);
  let service;
  try {
    service = openApp({ databasePath, transport: 'web', version: __GMW_VERSION__, autoBackup: true, lock: 'web', backfill: true, dataFolder });
  } catch (error) {
    console.error(`GM Workstation could not open its database at ${databasePath}: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
    return;
  }
  const staticDir = fileURLToPath(new URL('../renderer/', import.meta.url));
  const web = await startWebServer({ service, staticDir, port: portFrom(argv) });
  console.log(`Database: ${databasePath}`);
  if (firstStart) console.log(`First start: a new database was created; your campaigns and their backups live in ${dirname(databasePath)}.`);
  // A damaged database opened the app in recovery mode (server/recovery-mode.ts): the page offers the way out.
  const recovery = await service.dispatch('recovery:status', {});
  if ('result' in recovery && (recovery.result as RecoveryStatus).damaged) {
    console.log(`${(recovery.result as Extract<RecoveryStatus, { damaged: true }>).sentence} Open the address below to restore a backup.`);
  }
  console.log(`GM Workstation is running in web mode. Open this address in your browser (Ctrl+C stops it):\n\n  ${web.launchUrl}\n`);
  const stop = async () => {
    await web.close();
    service.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}
