// The handler table on ipcMain: one `ipcMain.handle` per allow-listed name (`area:verb`), each checking who is
// asking before it dispatches. Errors travel back as envelopes, never as throws: a throw inside ipcMain.handle
// reaches the renderer as an Error whose message carries main-process details.
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { Envelope } from '../core/api/contract.ts';
import type { ExportFile } from '../core/export/types.ts';
import { EXPORT_CHANNEL, HANDLER_NAMES, isExportHandler } from '../core/api/names.ts';
import type { AppService } from '../server/app.ts';
import { isAppUrl } from './origin.ts';

export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;

export const UNTRUSTED_SENDER: Envelope<never> = {
  error: { message: 'This request did not come from GM Workstation.', kind: 'invalid' },
};

export const INTERNAL_FAILURE: Envelope<never> = {
  error: { message: 'GM Workstation hit an internal problem; the last change may not have been saved.', kind: 'internal' },
};

/**
 * Trusted means: sent by our window's own contents, from its main frame (not an iframe), while that frame shows
 * a gmw://app page. `getContents` returns the window's webContents, or null while there is no window.
 */
export function createSenderCheck(getContents: () => WebContents | null): SenderCheck {
  return (event) => {
    const contents = getContents();
    const frame = event.senderFrame;
    if (contents === null || frame === null || frame === undefined) return false;
    if (event.sender !== contents) return false;
    // Compared by frame id rather than object identity, which Electron does not promise across navigations.
    if (frame.parent !== null || frame.frameTreeNodeId !== contents.mainFrame.frameTreeNodeId) return false;
    return isAppUrl(frame.url);
  };
}

/** Registers every handler; returns a function that removes them again. */
export function registerIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  service: Pick<AppService, 'dispatch'>,
  isTrustedSender: SenderCheck,
): () => void {
  for (const name of HANDLER_NAMES) {
    ipcMain.handle(name, async (event: IpcMainInvokeEvent, input: unknown): Promise<Envelope<unknown>> => {
      if (!isTrustedSender(event)) return UNTRUSTED_SENDER;
      try {
        return await service.dispatch(name, input);
      } catch (error) {
        // dispatch promises never to throw; if it does anyway, the renderer still gets an envelope.
        console.error(`[gmw] ${name} threw instead of returning an envelope:`, error);
        return INTERNAL_FAILURE;
      }
    });
  }
  return () => {
    for (const name of HANDLER_NAMES) ipcMain.removeHandler(name);
  };
}

/**
 * The export channel: a trusted page names one export handler and its input; main runs it and hands the file to
 * `save` (the native save dialog), so the page never chooses a path or writes a file itself.
 */
export function registerExport(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  service: Pick<AppService, 'dispatch'>,
  isTrustedSender: SenderCheck,
  save: (file: ExportFile) => Promise<string | null>,
): () => void {
  ipcMain.handle(EXPORT_CHANNEL, async (event: IpcMainInvokeEvent, name: unknown, input: unknown): Promise<Envelope<{ saved: string | null }>> => {
    if (!isTrustedSender(event)) return UNTRUSTED_SENDER;
    if (!isExportHandler(name)) return { error: { message: 'Unknown request.', kind: 'invalid' } };
    try {
      const envelope = (await service.dispatch(name, input)) as Envelope<ExportFile>;
      if ('error' in envelope) return envelope;
      return { result: { saved: await save(envelope.result) } };
    } catch (error) {
      console.error(`[gmw] saving ${name} failed:`, error);
      return { error: { message: 'The file could not be saved there. Choose another place and try again.', kind: 'internal' } };
    }
  });
  return () => ipcMain.removeHandler(EXPORT_CHANNEL);
}
