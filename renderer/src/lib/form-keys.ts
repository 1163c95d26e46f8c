// The runner's action forms send their event themselves, never through the browser's form submission: before a
// submit event, Chromium hands the whole form to its autofill (every option of a 200-combatant list, a forced layout
// per field), about 1.3 ms of a key press before the request could leave (issue 11).

import { tick } from 'svelte';

/**
 * Input types where Enter sends the form: the HTML standard's implicit submission, and the choosers (a box, a
 * radio button) so that Enter sends from any field a form opened by its key may have focused first.
 */
const SUBMITS_ON_ENTER = new Set(['text', 'search', 'number', 'email', 'url', 'tel', 'password', 'date', 'time', 'datetime-local', 'month', 'week', 'checkbox', 'radio']);

/**
 * Whether a key press is Enter in one of `form`'s fields (a text or number field, a checkbox or radio, a closed
 * drop-down): the press that sends `form`. The caller prevents it and sends the form's event itself. A drop-down
 * counts: an attack form's first field is its attacker, and Enter there must send the attack.
 */
export function isEnterInField(event: KeyboardEvent, form: HTMLFormElement | undefined): boolean {
  if (event.key !== 'Enter' || event.isComposing || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return false;
  const target = event.target;
  if (form === undefined || !(target instanceof Node) || !form.contains(target)) return false;
  return target instanceof HTMLSelectElement || (target instanceof HTMLInputElement && SUBMITS_ON_ENTER.has(target.type));
}

const FIELDS = 'input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])';

/**
 * A Svelte action for a form that opens in place (a shortcut, a tool button, a row's ±): when it opens — or shows
 * another action's fields (`key` changes) — focus goes to its first field, its text selected so a typed number
 * replaces it; when it closes (sent, Cancel, Esc), focus goes back where it was before it opened. Left where it
 * was, focus stayed on the button that opened the last form, and the next Enter pressed that button again.
 */
export function takesFocus(form: HTMLFormElement, key: unknown) {
  let before: HTMLElement | null = null;
  /** Focus back where it was, once: the form closes. */
  const giveBack = () => {
    const now = document.activeElement;
    // Only focus the form held (or lost with it) goes back: a click elsewhere that closed it keeps its own.
    if (now && now !== document.body && !form.contains(now)) return;
    if (before?.isConnected) before.focus();
    else (now as HTMLElement | null)?.blur?.();
  };
  focusReturns.set(form, giveBack);
  let current = key;
  const focusFirst = () => {
    const outside = document.activeElement;
    if (outside instanceof HTMLElement && outside !== document.body && !form.contains(outside)) before = outside;
    void tick().then(() => {
      const first = form.querySelector<HTMLElement>(FIELDS);
      if (!first || !form.isConnected) return;
      first.focus();
      if (first instanceof HTMLInputElement && ['text', 'search', 'number'].includes(first.type)) first.select();
    });
  };
  focusFirst();
  return {
    update(next: unknown) {
      if (next === current) return;
      current = next;
      focusFirst();
    },
    destroy() {
      focusReturns.delete(form);
      giveBack();
    },
  };
}

/** How each open form of `takesFocus` gives focus back. */
const focusReturns = new WeakMap<HTMLFormElement, () => void>();

/** Sent forms hidden with their write's result, each with how it closes once that result is drawn. */
const closing = new WeakMap<HTMLFormElement, () => void>();

/**
 * Closes a sent form with its write's result: `form` is hidden at once, in the same update as the rows its event
 * changed, and once that frame is drawn focus goes back (see `takesFocus`) and `close` takes the form out. Moving
 * focus or taking out a focused field makes the browser lay out the page at once: 5–6 ms inside the frame that shows
 * the damage when the field went with the form (its 200-option target list), still 1–2 ms when focus left it just
 * before. Hidden, the field loses focus as the frame is drawn, and no layout is forced before the GM sees the result.
 */
export function closeWhenShown(form: HTMLFormElement | undefined, close: () => void): void {
  if (!form?.isConnected) return close();
  if (closing.has(form)) return;
  const finish = () => {
    if (closing.get(form) !== finish) return;
    closing.delete(form);
    // Taken out meanwhile (Esc, another form opened in its place): it closed already, and `close` would close the next.
    if (!form.isConnected) return;
    focusReturns.get(form)?.();
    close();
  };
  closing.set(form, finish);
  form.style.display = 'none';
  afterDrawn(finish);
}

/** Whether `form` was sent and waits to close with its result (`closeWhenShown`). */
export function isClosing(form: HTMLFormElement | null | undefined): boolean {
  return form != null && closing.has(form);
}

/**
 * The form is opened again before its sent action's close: it stays, shown. Each panel's `open` calls it, the one
 * path by which a form opens, whether with the same key or another.
 */
export function keepOpen(form: HTMLFormElement | undefined): void {
  if (form && closing.delete(form)) form.style.removeProperty('display');
}

/**
 * Runs `then` once the next frame is drawn: a task queued from inside the frame, before its style and layout. A page
 * that draws no frames (a window in the background) runs it after a quarter of a second instead.
 */
function afterDrawn(then: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(fallback);
    then();
  };
  const fallback = setTimeout(once, 250);
  requestAnimationFrame(() => setTimeout(once, 0));
}

/**
 * A Svelte action for such a form: Enter in one of its fields, a click on its submit button and any submit send the
 * form's event through `send`, once the browser's checks of the fields pass (`reportValidity`); the browser's own
 * submission is cancelled each time before it starts.
 */
export function sendsItself(form: HTMLFormElement, send: () => void) {
  let current = send;
  const go = (event: Event) => {
    event.preventDefault();
    if (form.reportValidity()) current();
  };
  const onKeydown = (event: KeyboardEvent) => {
    if (isEnterInField(event, form)) go(event);
  };
  // Cancelling the click cancels the button's submission of the form.
  const onClick = (event: MouseEvent) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (button?.type === 'submit' && button.form === form) go(event);
  };
  form.addEventListener('keydown', onKeydown);
  form.addEventListener('click', onClick);
  form.addEventListener('submit', go);
  return {
    update(next: () => void) {
      current = next;
    },
    destroy() {
      form.removeEventListener('keydown', onKeydown);
      form.removeEventListener('click', onClick);
      form.removeEventListener('submit', go);
    },
  };
}
