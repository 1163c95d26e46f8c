// One encounter on screen: its detail as committed by the app, and the GM's actions on it. Actions are sent one
// at a time in the order the GM made them; the screen shows only what the app has committed. Every write carries
// what the screen showed when the GM pressed (`since`): the app refuses it when the fight has moved on since.
import { GmError, LOG_TAIL_EVENTS, STALE_SCREEN } from '../../../core/api/replies.ts';
import type { CarryPreview, EncounterDetail } from '../../../core/api/contract.ts';
import { send, onChanged } from './api.ts';
import { reuseUnchanged } from './reuse.ts';
import { toasts } from './toasts.svelte.ts';

/** How long a write may be on its way before the runner's buttons that write show that they wait for it. */
export const SLOW_WRITE_MS = 200;

/** The GM's answer to the carry-over check: adjustments (logged as overrides), or null to go back to the fight. */
export type CarryAnswer = { adjust: { characterId: string; key: string; value: number }[]; reason: string } | null;

/** What a screen showed of the encounter when the GM pressed: its event count and version (logSinceSchema). */
type Shown = { eventCount: number; version: string } | undefined;

/** One write as the GM pressed it: which write, and what the screen showed then. */
interface Press {
  write: string;
  since: Shown;
}

/** One of this screen's writes that went through: the screen it left from, the one its reply showed, which write, and its number among this screen's steps. */
interface Step {
  from: Shown;
  to: Shown;
  write: string;
  taken: number;
}

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
  #writing = $state(0);
  #slow = $state(false);
  #slowTimer: ReturnType<typeof setTimeout> | undefined;
  /** The newest write the app committed from this screen: the same press again is a double press. */
  #committed: Press | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  /**
   * This screen's writes that went through since the oldest press still waiting was made: the steps that press may
   * follow (`#leaving`). None while no write is on its way.
   */
  #steps: Step[] = [];
  /** How many of this screen's writes went through. */
  #stepsTaken = 0;
  /** Each write on its way, oldest first: how many steps had been taken when it was pressed. */
  #waiting: number[] = [];
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
  /**
   * A write from this screen is on its way: the preparation screen's buttons that write, and a prompt's answers,
   * wait for it (a prompt that follows may name the same answer: pressed again at once, it would answer the first).
   */
  get writing(): boolean {
    return this.#writing > 0;
  }
  /**
   * A write from this screen has been on its way for SLOW_WRITE_MS: the runner's buttons that write show that they
   * wait for it. A write answered sooner changes nothing on the page before its result: disabled at the press, the
   * buttons cost a whole frame (style, layout, paint) drawn while the write was on its way, and the result's frame
   * waited for it (docs/performance.md). A press in that time is sent after the first: the same write again is
   * refused as a double press (STALE_SCREEN), another goes through on the screen the first left (`#leaving`); a
   * double-click sends once (`firstClick`).
   */
  get slowWrite(): boolean {
    return this.#slow;
  }

  /** Resolves once every request this screen sent before it has been answered (and its reply shown). */
  settled(): Promise<void> {
    return this.#queue.then(() => undefined);
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
   * rolled with, so the dice are rolled once. `beforeShown` runs once the write changed what the screen shows, just
   * before it shows it: a form that sent the event closes in the same update as the rows its event changed.
   */
  act(event: { type: string; [key: string]: unknown }, beforeShown?: () => void): Promise<void> {
    // What the screen shows now, as the GM pressed: not what it shows when the request leaves (after the writes
    // queued before it), or a double press would act twice.
    const press = { write: `append ${JSON.stringify(event)}`, since: this.#since() };
    if (this.#detail?.view.phase !== 'running') return this.#write(press, (since) => send('encounters:append', { id: this.id, event, since }), undefined, beforeShown);
    return this.#write(press, async (since) => {
      // One round trip: the app commits the event unless it would end the fight with a carry-over to check.
      const reply = await send('encounters:append', { id: this.id, event, ask: true, since });
      if (!reply.carryCheck) return reply;
      const { event: filled, carry: preview } = reply.carryCheck;
      this.#detail = this.#merged(reply);
      const answer = await new Promise<CarryAnswer>((resolve) => (this.#carry = { preview, answer: resolve }));
      this.#carry = null;
      if (!answer) return this.#detail!;
      return send('encounters:append', { id: this.id, event: filled, since: this.#since(), ...(answer.adjust.length ? { carryAdjust: answer.adjust, carryReason: answer.reason } : {}) });
    }, undefined, beforeShown);
  }

  undo(): Promise<void> {
    return this.#write({ write: 'undo', since: this.#since() }, (since) => send('encounters:undo', { id: this.id, since }));
  }

  /**
   * Redoes the newest undone action. An undone ending is shown for review first, as when the fight first ended (with
   * the adjustments it held filled in): nothing is written until the GM confirms; going back leaves it undone.
   */
  redo(): Promise<void> {
    return this.#write({ write: 'redo', since: this.#since() }, async (since) => {
      const reply = await send('encounters:redo', { id: this.id, ask: true, since });
      if (!reply.carryCheck) return reply;
      const { carry: preview, adjusted } = reply.carryCheck;
      this.#detail = this.#merged(reply);
      const answer = await new Promise<CarryAnswer>((resolve) => (this.#carry = { preview, answer: resolve, ...(adjusted ? { adjusted } : {}) }));
      this.#carry = null;
      if (!answer) return this.#detail!;
      return send('encounters:redo', { id: this.id, since: this.#since(), confirm: true, carryAdjust: answer.adjust, ...(answer.reason ? { carryReason: answer.reason } : {}) });
    });
  }

  /**
   * Adds party members and copies of NPC templates (each copy may carry its own name and main pool). With `refused`,
   * a refusal is handed to it (the prepare screen shows it next to the field it concerns) instead of a toast.
   */
  addFromCampaign(pcIds: string[], npcs: NpcCopies[], position: number | null = null, refused?: (sentence: string) => void, initiative: number | null = null): Promise<void> {
    const typed = initiative === null ? {} : { initiative };
    const press = { write: `add ${JSON.stringify({ pcIds, npcs, position, ...typed })}`, since: this.#since() };
    return this.#write(press, (since) => send('encounters:addFromCampaign', { id: this.id, since, pcIds, npcs, position, ...typed }), refused);
  }

  /** Adds an NPC typed in place, without a template: its name, side and the number of its main pool (see `refused` above). */
  addTyped(npc: { name: string; side: string; pool: number }, refused?: (sentence: string) => void): Promise<void> {
    return this.#write({ write: `add ${JSON.stringify(npc)}`, since: this.#since() }, (since) => send('encounters:addFromCampaign', { id: this.id, since, pcIds: [], npcs: [], typed: [npc] }), refused);
  }

  /**
   * Adds every party member not yet in the fight but the dead; `skipped` hears who was left out and why (an empty list
   * when nobody was). Refused (nobody to add) it is not called and the refusal is shown as any other.
   */
  addWholeParty(skipped: (who: { name: string; reason: string }[]) => void): Promise<void> {
    return this.#write({ write: 'add the whole party', since: this.#since() }, async (since) => {
      const reply = await send('encounters:addFromCampaign', { id: this.id, since, pcIds: [], wholeParty: true, npcs: [] });
      skipped(reply.skipped ?? []);
      return reply;
    });
  }

  /** The cause the toasts of this fight carry: they go when a later write succeeds or the screen closes. */
  get toastCause(): string {
    return `encounter:${this.id}`;
  }

  dispose(): void {
    toasts.clear(this.toastCause);
    this.#stop();
    clearTimeout(this.#slowTimer);
  }

  /** What this screen shows: the app refuses a write from it once the fight moved on, else replies with only the new lines. */
  #since(): Shown {
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
    const { logAfter: _delta, carryCheck: _check, orderIds: _ids, skipped: _skipped, ...shown } = next;
    return reuseUnchanged(previous, { ...shown, view, log });
  }

  /**
   * One write of the GM's. Refused because the fight moved on since the screen was drawn, it changed nothing: the
   * screen reads the encounter again and says so in a short notice, unless this was the same press again (a
   * double-click or a key pressed twice before the first came back), which the screen already shows done.
   */
  #write(press: Press, request: (since: Shown) => Promise<EncounterDetail>, refused?: (sentence: string) => void, beforeShown?: () => void): Promise<void> {
    this.#writing += 1;
    this.#waiting.push(this.#stepsTaken);
    if (this.#slowTimer === undefined) this.#slowTimer = setTimeout(() => (this.#slow = true), SLOW_WRITE_MS);
    return this.#run(async () => {
      try {
        const since = this.#leaving(press);
        const reply = await request(since);
        this.#committed = press;
        this.#steps.push({ from: since, to: shownBy(reply), write: press.write, taken: this.#stepsTaken++ });
        // What an earlier refusal or notice said is no longer so once a write of the GM's has gone through.
        toasts.clear(this.toastCause);
        return reply;
      } catch (error) {
        // A refusal the screen shows beside its field: nothing was written, the screen stays as it is.
        if (refused && error instanceof GmError && (error.kind === 'refused' || error.kind === 'invalid') && this.#detail) {
          refused(error.message);
          return this.#detail;
        }
        if (!(error instanceof GmError) || error.kind !== 'stale') throw error;
        const again = this.#committed?.write === press.write && sameShown(this.#committed.since, press.since);
        if (!again && !toasts.items.some((toast) => toast.text === STALE_SCREEN)) toasts.show(STALE_SCREEN, 'info', this.toastCause);
        return send('encounters:get', { id: this.id });
      }
    }, false, beforeShown).finally(() => {
      // Writes settle in the order they were pressed: this was the oldest waiting. No later press can follow a step
      // taken before it was made.
      this.#waiting.shift();
      const oldest = this.#waiting[0];
      this.#steps = oldest === undefined ? [] : this.#steps.filter((step) => step.taken >= oldest);
      this.#writing -= 1;
      if (this.#writing === 0) this.#endSlow();
    });
  }

  /**
   * What a write says its screen shows as it leaves. A press made while this screen's own earlier writes were on their
   * way was made on a screen those writes were about to change: the GM pressed on, not against them. It goes with the
   * screen they left, reached from the press through this screen's own writes alone; a write from elsewhere in
   * between (another tab) breaks the chain, and the press is refused as made on a stale screen. The same write again
   * in that chain is a double press: it keeps the screen it was pressed on, and is refused as one.
   */
  #leaving(press: Press): Shown {
    let shown = press.since;
    for (const step of this.#steps) {
      if (!sameShown(step.from, shown)) continue;
      if (step.write === press.write) return press.since;
      shown = step.to;
    }
    return shown;
  }

  #endSlow(): void {
    clearTimeout(this.#slowTimer);
    this.#slowTimer = undefined;
    this.#slow = false;
  }

  /**
   * Serialises requests so a fast run of key presses is applied in order. `beforeShown` runs when the reply changes
   * what the screen shows, just before it does (in the same update of the page).
   */
  #run(request: () => Promise<EncounterDetail>, initial = false, beforeShown?: () => void): Promise<void> {
    this.#pending += 1;
    const next = this.#queue.then(async () => {
      try {
        const reply = await request();
        if (reply !== this.#detail) {
          beforeShown?.();
          this.#detail = this.#merged(reply);
        }
        this.#error = null;
      } catch (error) {
        if (initial) this.#error = error instanceof Error ? error.message : 'This encounter could not be loaded.';
        else toasts.error(error, this.toastCause);
      } finally {
        this.#pending -= 1;
      }
    });
    this.#queue = next;
    return next;
  }
}

/** Copies of one NPC template to add: how many, and optionally each one's name ('' keeps its number) and main pool. */
export interface NpcCopies { templateId: string; count: number; names?: string[]; pool?: number | (number | null)[] }

const shownBy = (reply: EncounterDetail): Shown => ({ eventCount: reply.encounter.eventCount, version: reply.encounter.updatedAt });

const sameShown = (a: Shown, b: Shown): boolean => a?.eventCount === b?.eventCount && a?.version === b?.version;

/**
 * A write button's click handler that lets the second click of a double-click pass: a double-click on Next turn
 * skipped the next combatant's whole turn when the first click's answer came back before the second click.
 * (A click from the keyboard has detail 0.)
 */
export function firstClick(write: () => unknown): (event: MouseEvent) => void {
  return (event) => {
    if (event.detail < 2) void write();
  };
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
