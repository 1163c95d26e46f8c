// The sandboxed preload: exposes ONE frozen object, `window.gmw`, and nothing of ipcRenderer itself. The bundle
// may require only 'electron'; the allow-list comes from core/api/names.ts, which has no dependencies.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { Envelope } from '../core/api/contract.ts';
import { CHANGED_CHANNEL, EXPORT_CHANNEL, isExportHandler, isHandlerName, type ChangeNotice } from '../core/api/names.ts';
import type { GmwBridge } from './bridge.ts';

export type { GmwBridge } from './bridge.ts';

const UNKNOWN_REQUEST: Envelope<never> = { error: { message: 'Unknown request.', kind: 'invalid' } };
const UNREACHABLE: Envelope<never> = {
  error: { message: 'GM Workstation could not reach its database; please restart the app.', kind: 'internal' },
};

export const api: GmwBridge = Object.freeze({
  invoke(name: string, input: unknown): Promise<Envelope<unknown>> {
    if (!isHandlerName(name)) return Promise.resolve(UNKNOWN_REQUEST);
    // A rejection here means main had no handler or the window is closing; the client expects an envelope.
    return (ipcRenderer.invoke(name, input) as Promise<Envelope<unknown>>).catch(() => UNREACHABLE);
  },
  onChanged(listener: (notice: ChangeNotice) => void): () => void {
    if (typeof listener !== 'function') throw new TypeError('onChanged needs a function.');
    // The renderer never sees the IpcRendererEvent (it would hand over `sender`, i.e. ipcRenderer itself).
    const forward = (_event: IpcRendererEvent, notice: ChangeNotice) => listener(notice);
    ipcRenderer.on(CHANGED_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(CHANGED_CHANNEL, forward);
    };
  },
  exportFile(name: string, input: unknown): Promise<Envelope<{ saved: string | null }>> {
    if (!isExportHandler(name)) return Promise.resolve(UNKNOWN_REQUEST);
    return (ipcRenderer.invoke(EXPORT_CHANNEL, name, input) as Promise<Envelope<{ saved: string | null }>>).catch(() => UNREACHABLE);
  },
  platform: 'electron' as const,
});

contextBridge.exposeInMainWorld('gmw', api);
