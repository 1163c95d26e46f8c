// `npm run web` (and `npm start` where the desktop window cannot open): web mode on 127.0.0.1.
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { RecoveryStatus } from '../core/api/contract.ts';
import { loadNotationLibrary } from '../core/dice/dice.ts';
import { openApp, type AppService } from './app.ts';
import { FIRST_SCREEN_SHOWN_MS, warmFirstScreen } from './first-screen.ts';
import { DB_FILE, defaultDataDir, resolveDatabasePath } from './paths.ts';
import { canWrite, readOnlyNotice, sentenceFor } from './failure-sentences.ts';
import { LOOPBACK, startWebServer } from './web.ts';

declare const __GMW_VERSION__: string;

/** How long after the address is printed web mode loads the dice notation library. */
const NOTATION_LIBRARY_AFTER_MS = 3_000;

export interface WebModeHooks {
  /**
   * Called once, off the start's path: after the page's first calls were answered and the notation library loaded.
   * The loader (scripts/web-server.mjs) keeps V8's compiled code then, the handlers' functions among it (V8
   * compiles a function when it first runs). Never called when no page calls.
   */
  served?: () => void;
}

function portFrom(argv: readonly string[]): number {
  const at = argv.indexOf('--port');
  const value = at >= 0 ? Number(argv[at + 1]) : 0;
  return Number.isInteger(value) && value >= 0 && value < 65536 ? value : 0;
}

/** Why the port cannot be listened on, as a sentence naming it and --port. */
export function portRefusal(error: unknown, port: number): string | null {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `Port ${port} is already in use on this machine; start with --port <another number>, or leave --port out to let the system choose.`;
  if (code === 'EACCES') return `Port ${port} may not be used by this user; start with --port <a number from 1024 to 65535>, or leave --port out to let the system choose.`;
  return null;
}

/** Whether 127.0.0.1:port can be listened on now: the error that says why not, or null. */
function portProblem(port: number): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    probe.listen(port, LOOPBACK, () => probe.close(() => resolve(null)));
  });
}

/** The service as the web server calls it, and a promise that resolves once it has answered its first call. */
function noticingFirstCall(service: AppService): { service: AppService; firstCallAnswered: Promise<void> } {
  let answered!: () => void;
  const firstCallAnswered = new Promise<void>((resolve) => (answered = resolve));
  let waiting = true;
  return {
    firstCallAnswered,
    service: {
      // Only the first call is watched; the calls after it go through as they are.
      dispatch: (name, input) => {
        const reply = service.dispatch(name, input);
        if (waiting) {
          waiting = false;
          reply.then(answered, answered);
        }
        return reply;
      },
      onChange: (listener) => service.onChange(listener),
      close: () => service.close(),
    },
  };
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export async function runWebMode(argv: readonly string[] = process.argv.slice(2), hooks: WebModeHooks = {}): Promise<void> {
  const dataFolder = defaultDataDir();
  const databasePath = resolveDatabasePath(argv, process.env, join(dataFolder, DB_FILE));
  const port = portFrom(argv);
  // A port asked for and taken is said before the database is touched (and again below, should it be taken meanwhile).
  const taken = port === 0 ? null : await portProblem(port);
  const refusal = taken && portRefusal(taken, port);
  if (refusal) {
    console.error(refusal);
    process.exitCode = 1;
    return;
  }
  const firstStart = !existsSync(databasePath);
  // The start's backup waits for the first screen: its worker and its copy would share the machine with the browser
  // loading the page (server/app.ts `startBackupAfter`).
  let firstScreenShown!: () => void;
  const startBackupAfter = new Promise<void>((resolve) => (firstScreenShown = resolve));
  let service;
  try {
    service = openApp({ databasePath, transport: 'web', version: __GMW_VERSION__, autoBackup: true, startBackupAfter, lock: 'web', backfill: true, dataFolder });
  } catch (error) {
    // The app's refusals (locked, damaged, newer) and a read-only or full disk are one sentence as they are.
    console.error(sentenceFor(error, databasePath) ?? `GM Workstation could not open its database at ${databasePath}: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
    return;
  }
  // Web mode runs as the CommonJS bundle dist/server/web.cjs: `__dirname` is dist/server.
  const staticDir = join(__dirname, '../renderer');
  const served = noticingFirstCall(service);
  let web;
  try {
    web = await startWebServer({ service: served.service, staticDir, port });
  } catch (error) {
    // One sentence, the database closed and its lock released, exit code 1: never a stack trace.
    service.close();
    console.error(portRefusal(error, port) ?? `GM Workstation could not listen on 127.0.0.1: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
    return;
  }
  console.log(`Database: ${databasePath}`);
  if (firstStart) console.log(`First start: a new database was created; your campaigns and their backups live in ${dirname(databasePath)}.`);
  // A file this user may read but not write opens (its campaigns can be looked at and exported); every change is refused.
  if (!canWrite(databasePath)) console.log(readOnlyNotice(databasePath));
  // A damaged database opened the app in recovery mode (server/recovery-mode.ts): the page offers the way out.
  const recovery = await service.dispatch('recovery:status', {});
  if ('result' in recovery && (recovery.result as RecoveryStatus).damaged) {
    console.log(`${(recovery.result as Extract<RecoveryStatus, { damaged: true }>).sentence} Open the address below to restore a backup.`);
  }
  console.log(`GM Workstation is running in web mode. Open this address in your browser (Ctrl+C stops it):\n\n  ${web.launchUrl}\n`);
  // While the browser loads the page, the first screen's calls run once, so that the page's own are only their work.
  // Made on the service itself: they are not the page's first call, which the code cache below waits for.
  const firstScreen = warmFirstScreen(service);
  // The notation library (with its math engine, about 0.2 s of work) for notations beyond the common forms loads
  // once the first page has had its start, not before the address is printed (core/dice/dice.ts).
  const notationLibrary = delay(NOTATION_LIBRARY_AFTER_MS).then(() => loadNotationLibrary().catch(() => undefined));
  const firstScreenServed = served.firstCallAnswered.then(() => delay(FIRST_SCREEN_SHOWN_MS));
  void firstScreenServed.then(firstScreenShown);
  if (hooks.served) {
    const calledBack = hooks.served;
    void Promise.all([notationLibrary, firstScreen, firstScreenServed]).then(() => calledBack());
  }
  const stop = async () => {
    await web.close();
    service.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}
