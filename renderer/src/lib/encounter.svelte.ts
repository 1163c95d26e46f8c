// One encounter on screen: its detail as committed by the app, and the GM's actions on it. Actions are sent one
// at a time in the order the GM made them; the screen shows only what the app has committed.
import type { EncounterDetail } from '../../../core/api/contract.ts';
import { send, onChanged } from './api.ts';
import { toasts } from './toasts.svelte.ts';

export class EncounterState {
  #detail = $state.raw<EncounterDetail | undefined>(undefined);
  #error = $state<string | null>(null);
  #pending = $state(0);
  #queue: Promise<unknown> = Promise.resolve();
  #stop: () => void;

  constructor(readonly id: string) {
    void this.#run(() => send('encounters:get', { id }), true);
    this.#stop = onChanged((notice) => {
      // Our own writes come back as notices too: skip those whose version this screen already shows.
      if (notice.area !== 'encounters' || notice.id !== id || this.#pending > 0) return;
      if (notice.version !== undefined && notice.version === this.#detail?.encounter.updatedAt) return;
      void this.refresh();
    });
  }

  get detail(): EncounterDetail | undefined {
    return this.#detail;
  }
  get error(): string | null {
    return this.#error;
  }
  get busy(): boolean {
    return this.#pending > 0;
  }

  refresh(): Promise<void> {
    return this.#run(() => send('encounters:get', { id: this.id }));
  }

  act(event: { type: string; [key: string]: unknown }): Promise<void> {
    return this.#run(() => send('encounters:append', { id: this.id, event }));
  }

  undo(): Promise<void> {
    return this.#run(() => send('encounters:undo', { id: this.id }));
  }

  redo(): Promise<void> {
    return this.#run(() => send('encounters:redo', { id: this.id }));
  }

  addFromCampaign(pcIds: string[], npcs: { templateId: string; count: number }[], position: number | null = null): Promise<void> {
    return this.#run(() => send('encounters:addFromCampaign', { id: this.id, pcIds, npcs, position }));
  }

  dispose(): void {
    this.#stop();
  }

  /** Serialises requests so a fast run of key presses is applied in order. */
  #run(request: () => Promise<EncounterDetail>, initial = false): Promise<void> {
    this.#pending += 1;
    const next = this.#queue.then(async () => {
      try {
        this.#detail = await request();
        this.#error = null;
      } catch (error) {
        if (initial) this.#error = error instanceof Error ? error.message : 'This encounter could not be loaded.';
        else toasts.error(error);
      } finally {
        this.#pending -= 1;
      }
    });
    this.#queue = next;
    return next;
  }
}

/** True when a key press belongs to a text field rather than to the app's shortcuts. */
export function typingInField(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (!target) return false;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable;
}

/** A single-key shortcut (N, A, 1…) may fire: no text field has the key, no modifier is held, no dialog is open. */
export function plainShortcut(event: KeyboardEvent): boolean {
  return !typingInField(event) && !event.ctrlKey && !event.metaKey && !event.altKey && !document.querySelector('dialog[open]');
}

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
export const modKey = isMac ? '⌘' : 'Ctrl';
