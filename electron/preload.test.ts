import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANGED_CHANNEL, type ChangeNotice } from '../core/api/names.ts';
import type { GmwBridge } from './bridge.ts';

const electron = vi.hoisted(() => ({
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: { invoke: vi.fn(), on: vi.fn(), removeListener: vi.fn(), send: vi.fn(), sendSync: vi.fn() },
}));
vi.mock('electron', () => electron);

let exposed: Array<[string, unknown]>;
let gmw: GmwBridge;

beforeAll(async () => {
  await import('./preload.ts');
  exposed = electron.contextBridge.exposeInMainWorld.mock.calls as Array<[string, unknown]>;
  gmw = exposed[0]![1] as GmwBridge;
});

beforeEach(() => {
  electron.ipcRenderer.invoke.mockReset();
  electron.ipcRenderer.on.mockReset();
  electron.ipcRenderer.removeListener.mockReset();
});

describe('the bridge', () => {
  it('exposes exactly one key, gmw', () => {
    expect(exposed).toHaveLength(1);
    expect(exposed[0]![0]).toBe('gmw');
  });

  it('is one frozen object with invoke, onChanged, exportFile and platform, and no raw ipcRenderer', () => {
    expect(Object.isFrozen(gmw)).toBe(true);
    expect(Object.keys(gmw).sort()).toEqual(['exportFile', 'invoke', 'onChanged', 'platform']);
    expect(gmw.platform).toBe('electron');
    expect(Object.values(gmw)).not.toContain(electron.ipcRenderer);
    expect(Object.values(gmw)).not.toContain(electron.ipcRenderer.invoke);
    expect(Object.values(gmw)).not.toContain(electron.ipcRenderer.on);
  });
});

describe('invoke', () => {
  it.each(['fs:readFile', 'app:changed', 'constructor', '__proto__', 'toString', '', 'campaigns:list '])(
    'refuses the unknown name %j without reaching ipcRenderer',
    async (name) => {
      await expect(gmw.invoke(name, {})).resolves.toEqual({ error: { message: 'Unknown request.', kind: 'invalid' } });
      expect(electron.ipcRenderer.invoke).not.toHaveBeenCalled();
    },
  );

  it('refuses a name that is not a string', async () => {
    await expect(gmw.invoke({ toString: () => 'campaigns:list' } as unknown as string, {})).resolves.toMatchObject({ error: { kind: 'invalid' } });
    expect(electron.ipcRenderer.invoke).not.toHaveBeenCalled();
  });

  it('sends a known name and its input to main and returns the envelope', async () => {
    electron.ipcRenderer.invoke.mockResolvedValueOnce({ result: [] });
    const input = { includeArchived: true };
    await expect(gmw.invoke('campaigns:list', input)).resolves.toEqual({ result: [] });
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledExactlyOnceWith('campaigns:list', input);
  });

  it('turns a failed ipc call into an internal envelope instead of a rejection', async () => {
    electron.ipcRenderer.invoke.mockRejectedValueOnce(new Error("No handler registered for 'campaigns:list'"));
    const envelope = await gmw.invoke('campaigns:list', {});
    expect(envelope).toMatchObject({ error: { kind: 'internal' } });
    expect(JSON.stringify(envelope)).not.toContain('No handler');
  });
});

describe('onChanged', () => {
  it('listens on the change channel and hands the listener the notice alone, never the event', () => {
    const listener = vi.fn();
    gmw.onChanged(listener);
    expect(electron.ipcRenderer.on).toHaveBeenCalledTimes(1);
    const [channel, forward] = electron.ipcRenderer.on.mock.calls[0] as [string, (...args: unknown[]) => void];
    expect(channel).toBe(CHANGED_CHANNEL);
    const notice: ChangeNotice = { area: 'encounters', id: 'enc-1' };
    const ipcEvent = { sender: electron.ipcRenderer, senderId: 0, ports: [] };
    forward(ipcEvent, notice);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener.mock.calls[0]).toEqual([notice]);
  });

  it('returns an unsubscribe that removes the same listener from the same channel', () => {
    const unsubscribe = gmw.onChanged(vi.fn());
    const [, forward] = electron.ipcRenderer.on.mock.calls[0] as [string, unknown];
    unsubscribe();
    expect(electron.ipcRenderer.removeListener).toHaveBeenCalledExactlyOnceWith(CHANGED_CHANNEL, forward);
  });
});

describe('exportFile', () => {
  it('sends only an export handler to the export channel', async () => {
    for (const name of ['campaigns:list', 'backups:restore', '__proto__', 'app:exportFile']) {
      await expect(gmw.exportFile(name, {})).resolves.toEqual({ error: { message: 'Unknown request.', kind: 'invalid' } });
    }
    expect(electron.ipcRenderer.invoke).not.toHaveBeenCalled();
    electron.ipcRenderer.invoke.mockResolvedValueOnce({ result: { saved: '/home/gm/Documents/ford.md' } });
    await expect(gmw.exportFile('exports:encounter', { id: 'e1', format: 'md' })).resolves.toEqual({ result: { saved: '/home/gm/Documents/ford.md' } });
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledExactlyOnceWith('app:exportFile', 'exports:encounter', { id: 'e1', format: 'md' });
  });
});
