import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Envelope } from '../core/api/contract.ts';
import { CHANGED_CHANNEL, HANDLER_NAMES } from '../core/api/names.ts';
import { INTERNAL_FAILURE, UNTRUSTED_SENDER, createSenderCheck, registerExport, registerIpc } from './ipc.ts';

// ipc.ts imports only types from the server; the mock makes sure no database is ever opened here.
vi.mock('../server/app.ts', () => ({ openApp: vi.fn(), resolveDatabasePath: vi.fn() }));

type Handler = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<Envelope<unknown>>;

function fakeIpcMain() {
  const handlers = new Map<string, Handler>();
  const ipcMain = {
    handle: vi.fn((channel: string, handler: Handler) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, handler);
    }),
    removeHandler: vi.fn((channel: string) => handlers.delete(channel)),
  };
  return { ipcMain: ipcMain as unknown as Pick<IpcMain, 'handle' | 'removeHandler'>, handlers };
}

const ourContents = { mainFrame: { frameTreeNodeId: 1 } } as unknown as WebContents;
const mainFrame = { url: 'gmw://app/index.html', parent: null, frameTreeNodeId: 1 };

function event(overrides: { sender?: unknown; senderFrame?: unknown } = {}): IpcMainInvokeEvent {
  return { sender: ourContents, senderFrame: mainFrame, ...overrides } as unknown as IpcMainInvokeEvent;
}

const UNTRUSTED_EVENTS: Record<string, IpcMainInvokeEvent> = {
  'another origin': event({ senderFrame: { ...mainFrame, url: 'https://evil.example/gmw://app/' } }),
  'a file: page': event({ senderFrame: { ...mainFrame, url: 'file:///home/gm/index.html' } }),
  'a look-alike host': event({ senderFrame: { ...mainFrame, url: 'gmw://app.evil/index.html' } }),
  'a subframe on our origin': event({ senderFrame: { url: 'gmw://app/index.html', parent: mainFrame, frameTreeNodeId: 7 } }),
  'a top-level frame that is not our main frame': event({ senderFrame: { url: 'gmw://app/index.html', parent: null, frameTreeNodeId: 7 } }),
  'a missing frame': event({ senderFrame: null }),
  'another webContents': event({ sender: { mainFrame: { frameTreeNodeId: 1 } } }),
};

function setup(getContents: () => WebContents | null = () => ourContents) {
  const { ipcMain, handlers } = fakeIpcMain();
  const dispatch = vi.fn(async (name: string, input: unknown): Promise<Envelope<unknown>> => ({ result: { name, input } }));
  const dispose = registerIpc(ipcMain, { dispatch }, createSenderCheck(getContents));
  const call = (name: string, ev: IpcMainInvokeEvent, input: unknown) => {
    const handler = handlers.get(name);
    if (!handler) throw new Error(`no handler for ${name}`);
    return handler(ev, input);
  };
  return { handlers, dispatch, dispose, call, ipcMain };
}

afterEach(() => vi.restoreAllMocks());

describe('registerIpc', () => {
  it('registers exactly one handler per allow-listed name, and nothing else', () => {
    const { handlers } = setup();
    expect([...handlers.keys()].sort()).toEqual([...HANDLER_NAMES].sort());
    expect(handlers.has(CHANGED_CHANNEL)).toBe(false);
  });

  it('passes the name and the input of a trusted call through to dispatch, and returns its envelope', async () => {
    const { call, dispatch } = setup();
    for (const name of HANDLER_NAMES) {
      const input = { probe: name };
      await expect(call(name, event(), input)).resolves.toEqual({ result: { name, input } });
      expect(dispatch).toHaveBeenLastCalledWith(name, input);
    }
    expect(dispatch).toHaveBeenCalledTimes(HANDLER_NAMES.length);
  });

  it.each(Object.entries(UNTRUSTED_EVENTS))('refuses %s without calling dispatch', async (_what, untrusted) => {
    const { call, dispatch } = setup();
    await expect(call('campaigns:list', untrusted, {})).resolves.toEqual({
      error: { message: 'This request did not come from GM Workstation.', kind: 'invalid' },
    });
    await expect(call('encounters:append', untrusted, { id: 'x', event: {} })).resolves.toBe(UNTRUSTED_SENDER);
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('refuses every call while there is no window', async () => {
    const { call, dispatch } = setup(() => null);
    await expect(call('app:info', event(), {})).resolves.toBe(UNTRUSTED_SENDER);
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('turns a dispatch that throws into an internal envelope instead of a rejected promise', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { call, dispatch } = setup();
    dispatch.mockRejectedValueOnce(new Error('SQLITE_CORRUPT at /home/gm/secret/path.sqlite'));
    const envelope = await call('campaigns:create', event(), { name: 'x' });
    expect(envelope).toBe(INTERNAL_FAILURE);
    expect(JSON.stringify(envelope)).not.toContain('SQLITE_CORRUPT');
  });

  it('removes every handler when disposed', () => {
    const { dispose, handlers, ipcMain } = setup();
    dispose();
    expect(handlers.size).toBe(0);
    expect(ipcMain.removeHandler).toHaveBeenCalledTimes(HANDLER_NAMES.length);
  });
});

describe('registerExport', () => {
  const file = { filename: 'ford.md', mime: 'text/markdown' as const, content: '# Ford' };
  function exportSetup(save = vi.fn(async () => '/home/gm/Documents/ford.md' as string | null)) {
    const { ipcMain, handlers } = fakeIpcMain();
    const dispatch = vi.fn(async (): Promise<Envelope<unknown>> => ({ result: file }));
    registerExport(ipcMain, { dispatch }, createSenderCheck(() => ourContents), save);
    const call = (ev: IpcMainInvokeEvent, name: unknown, input: unknown) => (handlers.get('app:exportFile') as (e: IpcMainInvokeEvent, n: unknown, i: unknown) => Promise<Envelope<unknown>>)(ev, name, input);
    return { dispatch, save, call };
  }

  it('runs the export handler and saves its file where the GM chose', async () => {
    const { dispatch, save, call } = exportSetup();
    await expect(call(event(), 'exports:encounter', { id: 'e1', format: 'md' })).resolves.toEqual({ result: { saved: '/home/gm/Documents/ford.md' } });
    expect(dispatch).toHaveBeenCalledWith('exports:encounter', { id: 'e1', format: 'md' });
    expect(save).toHaveBeenCalledWith(file);
  });

  it('says nothing was saved when the dialog is cancelled', async () => {
    const { call } = exportSetup(vi.fn(async () => null));
    await expect(call(event(), 'exports:campaign', { id: 'c1' })).resolves.toEqual({ result: { saved: null } });
  });

  it('refuses other handlers and untrusted pages without running or saving anything', async () => {
    const { dispatch, save, call } = exportSetup();
    await expect(call(event(), 'backups:restore', { name: 'x' })).resolves.toMatchObject({ error: { kind: 'invalid' } });
    for (const untrusted of Object.values(UNTRUSTED_EVENTS)) {
      await expect(call(untrusted, 'exports:encounter', { id: 'e1', format: 'md' })).resolves.toEqual(UNTRUSTED_SENDER);
    }
    expect(dispatch).not.toHaveBeenCalled();
    expect(save).not.toHaveBeenCalled();
  });

  it('passes a refused export back as it is, and a failed write as a sentence', async () => {
    const refusing = exportSetup();
    refusing.dispatch.mockResolvedValueOnce({ error: { message: 'That encounter does not exist.', kind: 'notFound' } });
    await expect(refusing.call(event(), 'exports:encounter', { id: 'x', format: 'md' })).resolves.toEqual({ error: { message: 'That encounter does not exist.', kind: 'notFound' } });
    expect(refusing.save).not.toHaveBeenCalled();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const failing = exportSetup(vi.fn(async () => { throw new Error('EACCES'); }));
    await expect(failing.call(event(), 'exports:encounter', { id: 'e1', format: 'md' })).resolves.toMatchObject({ error: { kind: 'internal', message: expect.stringMatching(/could not be saved/) } });
  });
});
