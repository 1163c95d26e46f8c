// The Electron main process, kept thin: it wires the tested pieces (security.ts, protocol.ts, ipc.ts, menu.ts)
// to one window and one AppService. Bundled by esbuild to dist/electron/main.cjs, so `__dirname` is dist/electron.
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, type BrowserWindowConstructorOptions } from 'electron';
import { CHANGED_CHANNEL } from '../core/api/names.ts';
import { loadNotationLibrary } from '../core/dice/dice.ts';
import { openApp, resolveDatabasePath, type AppService } from '../server/app.ts';
import { FIRST_SCREEN_SHOWN_MS } from '../server/first-screen.ts';
import { sentenceFor } from '../server/failure-sentences.ts';
import { createSenderCheck, registerExport, registerIpc } from './ipc.ts';
import { writeFile } from 'node:fs/promises';
import type { ExportFile } from '../core/export/types.ts';
import { buildMenuTemplate } from './menu.ts';
import { APP_ENTRY_URL, APP_SCHEME } from './origin.ts';
import { APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './protocol.ts';
import { applySecurity, secureWebPreferences } from './security.ts';

// Set by scripts/build.mjs (esbuild `define`); absent under Vitest.
declare const __GMW_VERSION__: string;

export const WINDOW_TITLE = 'GM Workstation';
const PRODUCT_NAME = 'GM Workstation';
export const DATABASE_FILE = 'gm-workstation.sqlite';

export interface AppPaths {
  /** dist/renderer: the only folder gmw://app serves. */
  renderer: string;
  preload: string;
  /**
   * The Electron-ABI better-sqlite3 binary. In development node_modules holds the Node build (tests and web mode
   * need it), so scripts/electron-native.mjs keeps a separate copy in .electron-native/. Packaged, the same copy
   * ships as an extra resource (electron-builder.yml), so packaging never rebuilds node_modules in place.
   */
  nativeBinding: string;
}

export function appPaths(mainDir: string, isPackaged: boolean, resourcesPath: string): AppPaths {
  const repo = path.join(mainDir, '../..');
  return {
    renderer: path.join(mainDir, '../renderer'),
    preload: path.join(mainDir, 'preload.cjs'),
    nativeBinding: isPackaged ? path.join(resourcesPath, 'native', 'better_sqlite3.node') : path.join(repo, '.electron-native', 'better_sqlite3.node'),
  };
}

export function windowOptions(preload: string): BrowserWindowConstructorOptions {
  return {
    title: WINDOW_TITLE,
    width: 1280,
    height: 800,
    minWidth: 1024,
    minHeight: 700,
    backgroundColor: '#14161a', // the dark theme's background, so the first frame does not flash white
    show: false,
    webPreferences: secureWebPreferences(preload),
  };
}

/** One sentence for the GM; the details go to the console for whoever runs the app from a terminal. */
export function startupFailureSentence(databasePath: string, nativeBinding: string | undefined, error: unknown): string {
  // The same sentence as web mode and gmw: the app's refusals (locked, damaged, newer, not ours), a read-only or full disk.
  const sentence = sentenceFor(error, databasePath);
  if (sentence !== null) return sentence;
  const message = error instanceof Error ? error.message : '';
  if (nativeBinding !== undefined && /better_sqlite3|NODE_MODULE_VERSION|cannot find module|no such file/i.test(message)) {
    return 'The Electron build of the database driver is missing or out of date; run "node scripts/electron-native.mjs" and start again.';
  }
  return `GM Workstation could not open its campaign database at ${databasePath}.`;
}

let mainWindow: BrowserWindow | null = null;

function focusMainWindow(): void {
  if (mainWindow === null || mainWindow.isDestroyed()) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

function createMainWindow(paths: AppPaths): BrowserWindow {
  const window = new BrowserWindow(windowOptions(paths.preload));
  applySecurity(window.webContents, window.webContents.session);
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  window.loadURL(APP_ENTRY_URL).catch((error: unknown) => {
    console.error('[gmw] the window could not load the app:', error);
    if (!window.isDestroyed()) window.show();
  });
  mainWindow = window;
  return window;
}

function appVersion(): string {
  return typeof __GMW_VERSION__ === 'string' ? __GMW_VERSION__ : app.getVersion();
}

function showAbout(): void {
  const options = {
    type: 'info' as const,
    title: `About ${WINDOW_TITLE}`,
    message: `${WINDOW_TITLE} ${appVersion()}`,
    detail: 'An offline workstation for tabletop game masters.',
  };
  const promise = mainWindow && !mainWindow.isDestroyed() ? dialog.showMessageBox(mainWindow, options) : dialog.showMessageBox(options);
  promise.catch(() => undefined);
}

const FILTERS: Record<ExportFile['mime'], { name: string; extensions: string[] }> = {
  'text/markdown': { name: 'Markdown', extensions: ['md'] },
  'text/html': { name: 'Web page', extensions: ['html'] },
  'application/json': { name: 'JSON', extensions: ['json'] },
};

/** Asks where to save an export (the native dialog, in Documents by default) and writes it; null when cancelled. */
async function saveWithDialog(file: ExportFile): Promise<string | null> {
  const options = { defaultPath: path.join(app.getPath('documents'), file.filename), filters: [FILTERS[file.mime]] };
  const choice = mainWindow && !mainWindow.isDestroyed() ? await dialog.showSaveDialog(mainWindow, options) : await dialog.showSaveDialog(options);
  if (choice.canceled || !choice.filePath) return null;
  await writeFile(choice.filePath, file.content, 'utf8');
  return choice.filePath;
}

function start(): void {
  const paths = appPaths(__dirname, app.isPackaged, process.resourcesPath);
  const databasePath = resolveDatabasePath(process.argv, process.env, path.join(app.getPath('userData'), DATABASE_FILE));

  // The start's backup waits for the window's first screen (server/app.ts `startBackupAfter`).
  let firstScreenShown!: () => void;
  const startBackupAfter = new Promise<void>((resolve) => (firstScreenShown = resolve));
  let service: AppService;
  try {
    service = openApp({ databasePath, transport: 'ipc', nativeBinding: paths.nativeBinding, version: appVersion(), autoBackup: true, startBackupAfter, lock: 'desktop', backfill: true });
  } catch (error) {
    console.error('[gmw] could not open the database:', error);
    dialog.showErrorBox(`${WINDOW_TITLE} could not start`, startupFailureSentence(databasePath, paths.nativeBinding, error));
    app.quit();
    return;
  }

  protocol.handle(APP_SCHEME, createAppProtocolHandler(paths.renderer));
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(buildMenuTemplate({ isPackaged: app.isPackaged, isMac: process.platform === 'darwin', showAbout })),
  );

  const trusted = createSenderCheck(() => (mainWindow && !mainWindow.isDestroyed() ? mainWindow.webContents : null));
  const disposeIpc = registerIpc(ipcMain, service, trusted);
  const disposeExport = registerExport(ipcMain, service, trusted, saveWithDialog);
  const unsubscribe = service.onChange((notice) => {
    if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(CHANGED_CHANNEL, notice);
  });

  // A reload loads the page again: the first load settles the promise, the later ones change nothing.
  createMainWindow(paths).webContents.on('did-finish-load', () => setTimeout(firstScreenShown, FIRST_SCREEN_SHOWN_MS));
  // The dice notation library (with its math engine) for notations beyond the common forms, once the window has started.
  setTimeout(() => void loadNotationLibrary().catch(() => undefined), 3_000);

  app.on('activate', () => {
    if (mainWindow === null) createMainWindow(paths);
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  let closed = false;
  app.on('will-quit', () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    disposeIpc();
    disposeExport();
    service.close();
  });
}

function main(): void {
  // Started as `electron dist/electron/main.cjs` (a file, not the package folder), Electron would call itself
  // "Electron" and keep its data in .../Electron; name the app and its data folder explicitly, before the
  // single-instance lock (which lives in userData) and before anything reads the database path.
  app.setName(PRODUCT_NAME);
  app.setPath('userData', path.join(app.getPath('appData'), PRODUCT_NAME));

  // Both must happen before the app is ready.
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
  app.enableSandbox();

  // One GM Workstation at a time: a second launch focuses the first window (two writers would fight over the file).
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('second-instance', focusMainWindow);
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      console.error('[gmw] start-up failed:', error);
      dialog.showErrorBox(`${WINDOW_TITLE} could not start`, 'GM Workstation could not open its window.');
      app.quit();
    });
}

main();
