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
