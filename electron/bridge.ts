// Types only: the one object the preload puts on `window.gmw`. The renderer imports it with `import type` and
// declares the global itself; nothing here is emitted into any bundle.
import type { Envelope } from '../core/api/contract.ts';
import type { ChangeNotice } from '../core/api/names.ts';

export interface GmwBridge {
  /** Runs one handler in main. Names outside HANDLER_NAMES resolve to an `invalid` envelope without leaving the page. */
  invoke(name: string, input: unknown): Promise<Envelope<unknown>>;
  /** Called with each change notice main pushes; returns the unsubscribe function. */
  onChanged(listener: (notice: ChangeNotice) => void): () => void;
  /**
   * Runs one export handler in main and saves its file where the GM chooses in the native save dialog.
   * `saved` is the path written, or null when the dialog was cancelled.
   */
  exportFile(name: string, input: unknown): Promise<Envelope<{ saved: string | null }>>;
  readonly platform: 'electron';
}
