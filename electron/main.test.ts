// Wiring of main.ts against a fake Electron: the pieces are tested on their own; this checks they are all used.
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANGED_CHANNEL, EXPORT_CHANNEL, HANDLER_NAMES, type ChangeNotice } from '../core/api/names.ts';

const USER_DATA = path.join('/home/gm/.config/appData', 'GM Workstation');
const DATABASE = path.join(USER_DATA, 'gm-workstation.sqlite');

type Listener = (...args: unknown[]) => unknown;

const fake = vi.hoisted(() => {
  const state = {
    isPackaged: false,
    gotLock: true,
    appListeners: new Map<string, Listener>(),
    paths: new Map<string, string>(),
    windows: [] as Array<{ options: Record<string, unknown>; loadURL: ReturnType<typeof vi.fn>; show: ReturnType<typeof vi.fn>; once: Map<string, Listener>; contentsOn: Map<string, Listener>; send: ReturnType<typeof vi.fn> }>,
    session: {} as Record<string, ReturnType<typeof vi.fn> | Record<string, ReturnType<typeof vi.fn>>>,
  };
  const makeSession = () => ({
    setPermissionRequestHandler: vi.fn(),
    setPermissionCheckHandler: vi.fn(),
    setDevicePermissionHandler: vi.fn(),
    webRequest: { onBeforeRequest: vi.fn() },
  });
  class BrowserWindow {
    webContents: Record<string, unknown>;
    constructor(options: Record<string, unknown>) {
      const contentsOn = new Map<string, Listener>();
      const once = new Map<string, Listener>();
      const record = { options, loadURL: vi.fn(() => Promise.resolve()), show: vi.fn(), once, contentsOn, send: vi.fn() };
      state.windows.push(record);
      this.webContents = {
        on: (event: string, listener: Listener) => contentsOn.set(event, listener),
        setWindowOpenHandler: vi.fn(),
        send: record.send,
        session: state.session,
        mainFrame: { frameTreeNodeId: 1 },
      };
      Object.assign(this, {
        loadURL: record.loadURL,
        show: record.show,
        once: (event: string, listener: Listener) => once.set(event, listener),
        on: vi.fn(),
        isDestroyed: () => false,
      });
    }
  }
  const electron = {
    app: {
      get isPackaged() {
        return state.isPackaged;
      },
      requestSingleInstanceLock: vi.fn(() => state.gotLock),
      enableSandbox: vi.fn(),
      whenReady: vi.fn(() => Promise.resolve()),
      on: vi.fn((event: string, listener: Listener) => state.appListeners.set(event, listener)),
      quit: vi.fn(),
      getPath: vi.fn((name: string) => state.paths.get(name) ?? `/home/gm/.config/${name}`),
      setPath: vi.fn((name: string, value: string) => state.paths.set(name, value)),
      setName: vi.fn(),
      getVersion: vi.fn(() => '0.1.0'),
    },
    BrowserWindow,
    dialog: { showErrorBox: vi.fn(), showMessageBox: vi.fn(() => Promise.resolve({ response: 0 })) },
    ipcMain: { handle: vi.fn(), removeHandler: vi.fn() },
    Menu: { buildFromTemplate: vi.fn((template: unknown) => ({ template })), setApplicationMenu: vi.fn() },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
  };
  const service = { dispatch: vi.fn(), onChange: vi.fn(), close: vi.fn() };
  const server = {
    openApp: vi.fn((_options: unknown) => service),
    resolveDatabasePath: vi.fn((_argv: readonly string[], _env: unknown, fallback: string) => fallback),
  };
  return { state, makeSession, electron, service, server };
});

vi.mock('electron', () => fake.electron);
vi.mock('../server/app.ts', () => fake.server);

async function startMain() {
  vi.resetModules();
  await import('./main.ts');
  await new Promise((resolve) => setTimeout(resolve, 0));
}

beforeEach(() => {
  vi.clearAllMocks();
  fake.state.isPackaged = false;
  fake.state.gotLock = true;
  fake.state.appListeners.clear();
  fake.state.paths.clear();
  fake.state.windows.length = 0;
  fake.state.session = fake.makeSession();
  fake.server.openApp.mockImplementation(() => fake.service);
  fake.service.onChange.mockImplementation(() => () => undefined);
});

describe('main process start-up', () => {
  it('registers gmw:// as a standard, secure scheme and takes the single-instance lock before anything else', async () => {
    await startMain();
    expect(fake.electron.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      expect.objectContaining({ scheme: 'gmw', privileges: expect.objectContaining({ standard: true, secure: true, supportFetchAPI: true }) }),
    ]);
    expect(fake.electron.app.requestSingleInstanceLock).toHaveBeenCalled();
    expect(fake.electron.app.enableSandbox).toHaveBeenCalled();
  });

  it('names the app and its data folder before taking the lock, even when started from the bare main.cjs', async () => {
    await startMain();
    expect(fake.electron.app.setName).toHaveBeenCalledWith('GM Workstation');
    expect(fake.electron.app.setPath).toHaveBeenCalledWith('userData', USER_DATA);
    expect(fake.electron.app.setPath.mock.invocationCallOrder[0]).toBeLessThan(fake.electron.app.requestSingleInstanceLock.mock.invocationCallOrder[0]!);
  });

  it('quits without opening anything when another instance holds the lock', async () => {
    fake.state.gotLock = false;
    await startMain();
    expect(fake.electron.app.quit).toHaveBeenCalled();
    expect(fake.server.openApp).not.toHaveBeenCalled();
    expect(fake.state.windows).toHaveLength(0);
  });

  it('opens the database in userData with the Electron-ABI driver from .electron-native in development', async () => {
    await startMain();
    expect(fake.server.resolveDatabasePath).toHaveBeenCalledWith(process.argv, process.env, DATABASE);
    const options = fake.server.openApp.mock.calls[0]![0] as Record<string, unknown>;
    expect(options).toMatchObject({ databasePath: DATABASE, transport: 'ipc', version: '0.1.0' });
    expect(String(options['nativeBinding'])).toMatch(/\.electron-native[/\\]better_sqlite3\.node$/);
  });

  it('loads the Electron-ABI driver shipped as a resource when packaged', async () => {
    fake.state.isPackaged = true;
    Object.defineProperty(process, 'resourcesPath', { value: '/opt/gm-workstation/resources', configurable: true });
    try {
      await startMain();
    } finally {
      delete (process as { resourcesPath?: string }).resourcesPath;
    }
    const options = fake.server.openApp.mock.calls[0]![0] as Record<string, unknown>;
    expect(String(options['nativeBinding'])).toBe(path.join('/opt/gm-workstation/resources', 'native', 'better_sqlite3.node'));
  });

  it('creates one secure 1280×800 window, hidden until ready-to-show, and loads gmw://app', async () => {
    await startMain();
    expect(fake.state.windows).toHaveLength(1);
    const window = fake.state.windows[0]!;
    expect(window.options).toMatchObject({ title: 'GM Workstation', width: 1280, height: 800, minWidth: 1024, minHeight: 700, backgroundColor: '#14161a', show: false });
    expect(window.options['webPreferences']).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
    expect(String((window.options['webPreferences'] as Record<string, unknown>)['preload'])).toMatch(/preload\.cjs$/);
    expect(window.loadURL).toHaveBeenCalledWith('gmw://app/index.html');
    expect(window.show).not.toHaveBeenCalled();
    window.once.get('ready-to-show')!();
    expect(window.show).toHaveBeenCalled();
  });

  it('secures the window (navigation guard, permission handlers) and serves gmw from the renderer folder', async () => {
    await startMain();
    const window = fake.state.windows[0]!;
    expect(window.contentsOn.has('will-navigate')).toBe(true);
    expect(window.contentsOn.has('will-attach-webview')).toBe(true);
    expect(fake.state.session['setPermissionRequestHandler']).toHaveBeenCalled();
    expect(fake.state.session['setPermissionCheckHandler']).toHaveBeenCalled();
    expect(fake.electron.protocol.handle).toHaveBeenCalledWith('gmw', expect.any(Function));
    expect(fake.electron.Menu.setApplicationMenu).toHaveBeenCalled();
  });

  it('registers every handler on ipcMain and forwards change notices to the window', async () => {
    await startMain();
    const channels = fake.electron.ipcMain.handle.mock.calls.map((call) => call[0]);
    expect([...channels].sort()).toEqual([...HANDLER_NAMES, EXPORT_CHANNEL].sort());
    const listener = fake.service.onChange.mock.calls[0]![0] as (notice: ChangeNotice) => void;
    listener({ area: 'campaigns', id: 'c1' });
    expect(fake.state.windows[0]!.send).toHaveBeenCalledWith(CHANGED_CHANNEL, { area: 'campaigns', id: 'c1' });
  });

  it('closes the service when the app quits', async () => {
    await startMain();
    fake.state.appListeners.get('will-quit')!();
    expect(fake.service.close).toHaveBeenCalledTimes(1);
    expect(fake.electron.ipcMain.removeHandler).toHaveBeenCalledTimes(HANDLER_NAMES.length + 1);
  });

  it("makes the start's backup wait for the window's first screen", async () => {
    await startMain();
    const [options] = fake.server.openApp.mock.calls[0] as unknown as [{ autoBackup?: boolean; startBackupAfter?: Promise<unknown> }];
    expect(options.autoBackup).toBe(true);
    let settled = false;
    void options.startBackupAfter!.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    fake.state.windows[0]!.contentsOn.get('did-finish-load')!();
    await options.startBackupAfter;
    expect(settled).toBe(true);
  });

  it('shows one sentence and quits, with no stack trace, when the database cannot be opened', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fake.server.openApp.mockImplementation(() => {
      throw new Error('SQLITE_CANTOPEN: unable to open database file\n    at Database (/x/database.js:65:21)');
    });
    await startMain();
    expect(fake.electron.dialog.showErrorBox).toHaveBeenCalledTimes(1);
    const [title, content] = fake.electron.dialog.showErrorBox.mock.calls[0] as unknown as [string, string];
    expect(title).toBe('GM Workstation could not start');
    expect(content).toBe(`GM Workstation could not open its campaign database at ${DATABASE}.`);
    expect(content).not.toMatch(/SQLITE|\bat \w|\n/);
    expect(fake.electron.app.quit).toHaveBeenCalled();
    expect(fake.state.windows).toHaveLength(0);
    expect(fake.electron.ipcMain.handle).not.toHaveBeenCalled();
  });

  it('shows the app’s own refusal as web mode says it: the lock holder, a newer schema, a file that is not ours', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { DatabaseLockedError } = await import('../db/lock.ts');
    const { NewerSchemaError } = await import('../db/migrate.ts');
    class NotOursError extends Error {
      override name = 'NotOursError';
      readonly gmSentence = true;
    }
    const refusals = [
      new DatabaseLockedError({ pid: 4242, kind: 'web', startedAt: '2026-11-26T20:00:00.000Z', hostname: '' }, `${DATABASE}.lock`),
      new NewerSchemaError(99, 10),
      new NotOursError(`${DATABASE} is not a GM Workstation database; nothing in it was changed.`),
    ];
    for (const refusal of refusals) {
      vi.clearAllMocks();
      fake.server.openApp.mockImplementation(() => {
        throw refusal;
      });
      await startMain();
      expect(fake.electron.dialog.showErrorBox).toHaveBeenCalledTimes(1);
      const [title, content] = fake.electron.dialog.showErrorBox.mock.calls[0] as unknown as [string, string];
      expect(title).toBe('GM Workstation could not start');
      expect(content).toBe(refusal.message);
      expect(fake.electron.app.quit).toHaveBeenCalled();
    }
  });

  it('tells the developer to build the Electron driver when it is missing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fake.server.openApp.mockImplementation(() => {
      throw new Error("Cannot find module '/repo/.electron-native/better_sqlite3.node'");
    });
    await startMain();
    const [, content] = fake.electron.dialog.showErrorBox.mock.calls[0] as unknown as [string, string];
    expect(content).toContain('node scripts/electron-native.mjs');
  });
});
