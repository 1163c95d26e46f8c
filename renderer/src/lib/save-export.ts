// Saving an export: the desktop app asks main to run the export and show the native save dialog; web mode fetches
// the file and hands it to the browser as a download. Either way a refusal is a toast, never a stack trace.
import { GmError } from '../../../core/api/replies.ts';
import type { HandlerInput } from '../../../core/api/contract.ts';
import type { ExportHandlerName } from '../../../core/api/names.ts';
import { send } from './api.ts';
import { toasts } from './toasts.svelte.ts';

export async function saveExport<N extends ExportHandlerName>(name: N, input: HandlerInput<N>): Promise<void> {
  try {
    const bridge = typeof window !== 'undefined' ? window.gmw : undefined;
    if (bridge) {
      const envelope = await bridge.exportFile(name, input);
      if ('error' in envelope) throw new GmError(envelope.error.message, envelope.error.kind);
      if (envelope.result.saved) toasts.show(`Saved to ${envelope.result.saved}`);
      return;
    }
    const file = await send(name, input as never);
    const url = URL.createObjectURL(new Blob([file.content], { type: `${file.mime};charset=utf-8` }));
    const link = document.createElement('a');
    link.href = url;
    link.download = file.filename;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    toasts.show(`Downloaded ${file.filename}`);
  } catch (error) {
    toasts.error(error);
  }
}
