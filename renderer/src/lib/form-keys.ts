// The runner's action forms send their event themselves, never through the browser's form submission: before a
// submit event, Chromium hands the whole form to its autofill (every option of a 200-combatant list, a forced layout
// per field), about 1.3 ms of a key press before the request could leave (docs/performance.md, fix 25).

/** Input types where Enter submits a form (the HTML standard's implicit submission). */
const SUBMITS_ON_ENTER = new Set(['text', 'search', 'number', 'email', 'url', 'tel', 'password', 'date', 'time', 'datetime-local', 'month', 'week']);

/**
 * Whether a key press is Enter in one of `form`'s text or number fields: the press the browser would turn into a
 * submission of `form`. The caller prevents it and sends the form's event itself.
 */
export function isEnterInField(event: KeyboardEvent, form: HTMLFormElement | undefined): boolean {
  if (event.key !== 'Enter' || event.isComposing || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return false;
  const target = event.target;
  return target instanceof HTMLInputElement && SUBMITS_ON_ENTER.has(target.type) && form !== undefined && form.contains(target);
}
