// One encounter on screen: its detail as committed by the app, and the GM's actions on it. Actions are sent one
// at a time in the order the GM made them; the screen shows only what the app has committed.
import { LOG_TAIL_EVENTS, type CarryPreview, type EncounterDetail } from '../../../core/api/contract.ts';
import { send, onChanged } from './api.ts';
import { reuseUnchanged } from './reuse.ts';
import { toasts } from './toasts.svelte.ts';

/** The GM's answer to the carry-over check: adjustments (logged as overrides), or null to go back to the fight. */
export type CarryAnswer = { adjust: { characterId: string; key: string; value: number }[]; reason: string } | null;

/** The carry-over check on screen: what ending the fight writes, the GM's answer, and (a redo) the adjustments to start from. */
export interface CarryReview {
  preview: CarryPreview;
  answer: (answer: CarryAnswer) => void;
  adjusted?: { adjust: { characterId: string; key: string; value: number }[]; reason: string };
}

export class EncounterState {
  #detail = $state.raw<EncounterDetail | undefined>(undefined);
  #carry = $state.raw<CarryReview | null>(null);
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

  /** While set, the runner shows what ending the fight will write onto each character, before it is committed. */
  get carry(): CarryReview | null {
    return this.#carry;
  }

  /**
   * Sends one GM event. During the fight it is tried first: if it would end the fight, the GM sees the carry-over
   * and confirms (or adjusts, or goes back) before anything is written. The tried event carries the dice it was
   * rolled with, so the dice are rolled once.
   */
  act(event: { type: string; [key: string]: unknown }): Promise<void> {
    if (this.#detail?.view.phase !== 'running') return this.#run(() => send('encounters:append', { id: this.id, event, since: this.#since() }));
    return this.#run(async () => {
      // One round trip: the app commits the event unless it would end the fight with a carry-over to check.
      const reply = await send('encounters:append', { id: this.id, event, ask: true, since: this.#since() });
      if (!reply.carryCheck) return reply;
      const { event: filled, carry: preview } = reply.carryCheck;
      this.#detail = this.#merged(reply);
      const answer = await new Promise<CarryAnswer>((resolve) => (this.#carry = { preview, answer: resolve }));
      this.#carry = null;
      if (!answer) return this.#detail!;
      return send('encounters:append', { id: this.id, event: filled, since: this.#since(), ...(answer.adjust.length ? { carryAdjust: answer.adjust, carryReason: answer.reason } : {}) });
    });
  }

  undo(): Promise<void> {
    return this.#run(() => send('encounters:undo', { id: this.id, since: this.#since() }));
  }

  /**
   * Redoes the newest undone action. An undone ending is shown for review first, as when the fight first ended (with
   * the adjustments it held filled in): nothing is written until the GM confirms; going back leaves it undone.
   */
  redo(): Promise<void> {
    return this.#run(async () => {
      const reply = await send('encounters:redo', { id: this.id, ask: true, since: this.#since() });
      if (!reply.carryCheck) return reply;
      const { carry: preview, adjusted } = reply.carryCheck;
      this.#detail = this.#merged(reply);
      const answer = await new Promise<CarryAnswer>((resolve) => (this.#carry = { preview, answer: resolve, ...(adjusted ? { adjusted } : {}) }));
      this.#carry = null;
      if (!answer) return this.#detail!;
      return send('encounters:redo', { id: this.id, since: this.#since(), confirm: true, carryAdjust: answer.adjust, ...(answer.reason ? { carryReason: answer.reason } : {}) });
    });
  }

  addFromCampaign(pcIds: string[], npcs: { templateId: string; count: number }[], position: number | null = null): Promise<void> {
    return this.#run(() => send('encounters:addFromCampaign', { id: this.id, pcIds, npcs, position }));
  }

  dispose(): void {
    this.#stop();
  }

  /** What this screen shows, so a write replies with only the log lines it lacks. */
  #since(): { eventCount: number; version: string } | undefined {
    const shown = this.#detail?.encounter;
    return shown && { eventCount: shown.eventCount, version: shown.updatedAt };
  }

  /**
   * The reply as the screen keeps it: a log delta joined to the lines already shown, and every part that did not
   * change kept as the same object, so only the rows that changed are drawn again.
   */
  #merged(next: EncounterDetail): EncounterDetail {
    const previous = this.#detail;
    if (!previous) return next;
    let log = next.log;
    if (next.logAfter !== undefined) {
      const oldest = next.encounter.eventCount - LOG_TAIL_EVENTS;
      const kept = previous.log.filter((line) => line.seq <= next.logAfter! && line.seq > oldest);
      log = next.log.length ? [...kept, ...next.log] : kept;
    }
    let view = next.view;
    if (next.orderIds) {
      // Only the changed combatants came: the others are the objects this screen already holds.
      const changed = new Map(next.view.order.map((c) => [c.id, c]));
      const held = new Map(previous.view.order.map((c) => [c.id, c]));
      const order = next.orderIds.map((id) => changed.get(id) ?? held.get(id));
      if (order.some((c) => c === undefined)) {
        // Cannot happen when the app and this screen agree; if they do not, read the whole encounter again.
        queueMicrotask(() => void this.refresh());
        view = { ...next.view, order: previous.view.order };
      } else view = { ...next.view, order: order as typeof next.view.order };
    }
    const { logAfter: _delta, carryCheck: _check, orderIds: _ids, ...shown } = next;
    return reuseUnchanged(previous, { ...shown, view, log });
  }

  /** Serialises requests so a fast run of key presses is applied in order. */
  #run(request: () => Promise<EncounterDetail>, initial = false): Promise<void> {
    this.#pending += 1;
    const next = this.#queue.then(async () => {
      try {
        const reply = await request();
        if (reply !== this.#detail) this.#detail = this.#merged(reply);
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

/** Ctrl/⌘+Z undoes; Ctrl/⌘+Shift+Z or Ctrl/⌘+Y redoes; anything else (or typing in a field) is not for undo. */
export function undoRedoKey(event: KeyboardEvent): 'undo' | 'redo' | null {
  if (typingInField(event) || !(event.ctrlKey || event.metaKey)) return null;
  const key = event.key.toLowerCase();
  if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
  return key === 'y' ? 'redo' : null;
}

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
export const modKey = isMac ? '⌘' : 'Ctrl';
