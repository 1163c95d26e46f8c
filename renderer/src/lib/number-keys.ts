// Choosing by number key (issue 28): a prompt's choices and a form's targets carry the numbers 1, 2, 3 … shown as a
// key hint. Up to nine choices a digit picks at once. Past nine, a number is typed as the GM reads it: 1 then 2
// quickly is 12; a first digit that could start a longer number waits a moment (NUMBER_WAIT_MS) for the second,
// and picks alone if none comes. 0 alone picks nothing.

/** How long a first digit waits for a second one when the choices run past nine. */
export const NUMBER_WAIT_MS = 700;

export class NumberKeys {
  #typed = '';
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #count: () => number;
  readonly #pick: (index: number) => void;

  /** `count` choices numbered from 1; `pick` receives the chosen choice's index (from 0). */
  constructor(count: () => number, pick: (index: number) => void) {
    this.#count = count;
    this.#pick = pick;
  }

  /** Takes a key press; true when it was a digit for these choices (the caller prevents its default). */
  press(key: string): boolean {
    const count = this.#count();
    if (!/^[0-9]$/.test(key) || count === 0) return false;
    clearTimeout(this.#timer);
    const typed = this.#typed + key;
    const chosen = Number(typed);
    if (chosen === 0) {
      this.#typed = '';
      return true;
    }
    // A number no longer choice starts with (past the count once another digit is added) is complete.
    if (chosen * 10 > count) {
      this.#typed = '';
      if (chosen <= count) this.#pick(chosen - 1);
      return true;
    }
    this.#typed = typed;
    this.#timer = setTimeout(() => {
      this.#typed = '';
      this.#pick(chosen - 1);
    }, NUMBER_WAIT_MS);
    return true;
  }

  /** Forgets a first digit still waiting (the choices changed). */
  reset() {
    clearTimeout(this.#timer);
    this.#typed = '';
  }
}

/** The hint shown on the choice at `index` (from 0): its number. */
export const numberHint = (index: number) => String(index + 1);

/** An option of a drop-down of targets, its number key before it: "[2] Thug 1". */
export const numbered = (index: number, text: string) => `[${numberHint(index)}] ${text}`;

/**
 * A Svelte action for a drop-down of targets: a digit picks its option of that number (options with an empty
 * value, like "—", are not numbered), as `NumberKeys` reads numbers; the options show their number (numberHint).
 */
export function numberKeys(select: HTMLSelectElement) {
  const numbered = () => [...select.options].filter((o) => o.value !== '' && !o.disabled);
  const keys = new NumberKeys(
    () => numbered().length,
    (index) => {
      const option = numbered()[index];
      if (!option) return;
      select.value = option.value;
      select.dispatchEvent(new Event('input', { bubbles: true }));
      select.dispatchEvent(new Event('change', { bubbles: true }));
    },
  );
  const onKeydown = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (keys.press(event.key)) event.preventDefault();
  };
  select.addEventListener('keydown', onKeydown);
  return {
    destroy() {
      keys.reset();
      select.removeEventListener('keydown', onKeydown);
    },
  };
}

/**
 * A Svelte action for a group of target checkboxes (several targets): a digit typed while focus is in the group
 * ticks or unticks the checkbox of that number (shown before each name), as `NumberKeys` reads numbers.
 */
export function toggleByNumber(group: HTMLElement) {
  const boxes = () => [...group.querySelectorAll<HTMLInputElement>('input[type=checkbox]:not([disabled])')];
  const keys = new NumberKeys(
    () => boxes().length,
    (index) => {
      const box = boxes()[index];
      if (!box) return;
      box.click();
      box.focus();
    },
  );
  const onKeydown = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (keys.press(event.key)) event.preventDefault();
  };
  group.addEventListener('keydown', onKeydown);
  return {
    destroy() {
      keys.reset();
      group.removeEventListener('keydown', onKeydown);
    },
  };
}
