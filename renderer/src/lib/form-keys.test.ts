// @vitest-environment jsdom
// Enter in a runner form's field: the press the forms handle themselves instead of the browser's submission.
import { describe, expect, it, vi } from 'vitest';
import { closeWhenShown, isEnterInField, keepOpen, takesFocus } from './form-keys.ts';

function page() {
  document.body.innerHTML = `<form><input type="number"><input><input type="checkbox"><textarea></textarea><select><option>a</option></select><button type="button">Go</button></form><input id="outside">`;
  const form = document.querySelector('form')!;
  const [number, text, checkbox] = [...form.querySelectorAll('input')];
  return { form, number: number!, text: text!, checkbox: checkbox!, textarea: form.querySelector('textarea')!, select: form.querySelector('select')!, button: form.querySelector('button')!, outside: document.getElementById('outside')! };
}

/** The key press as the window's listener sees it, from `target`. */
function press(target: Element, init: KeyboardEventInit): KeyboardEvent {
  let seen: KeyboardEvent | undefined;
  const listener = (e: KeyboardEvent) => (seen = e);
  window.addEventListener('keydown', listener);
  target.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }));
  window.removeEventListener('keydown', listener);
  return seen!;
}

describe('Enter in a form field', () => {
  it('is Enter in the form\'s number and text fields, and in a checkbox or a closed list (issue 28: a form\'s first field may be either)', () => {
    const p = page();
    expect(isEnterInField(press(p.number, { key: 'Enter' }), p.form)).toBe(true);
    expect(isEnterInField(press(p.text, { key: 'Enter' }), p.form)).toBe(true);
    expect(isEnterInField(press(p.checkbox, { key: 'Enter' }), p.form)).toBe(true);
    expect(isEnterInField(press(p.select, { key: 'Enter' }), p.form)).toBe(true);
  });

  it('is not another key, Enter with a modifier, Enter in a text area or on a button, or outside the form', () => {
    const p = page();
    expect(isEnterInField(press(p.number, { key: 'a' }), p.form)).toBe(false);
    expect(isEnterInField(press(p.number, { key: 'Enter', shiftKey: true }), p.form)).toBe(false);
    expect(isEnterInField(press(p.number, { key: 'Enter', ctrlKey: true }), p.form)).toBe(false);
    for (const target of [p.textarea, p.button, p.outside]) expect(isEnterInField(press(target, { key: 'Enter' }), p.form)).toBe(false);
    expect(isEnterInField(press(p.number, { key: 'Enter' }), undefined)).toBe(false);
  });
});

/** Two animation frames and the tasks after them: the next frame is drawn. */
const drawn = () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0))));

describe('a sent form closed with its result', () => {
  it('is hidden at once, with focus left in it, and closed once the frame is drawn, focus given back first', async () => {
    const p = page();
    p.outside.focus();
    const focusing = takesFocus(p.form, 'damage');
    p.number.focus();
    const close = vi.fn(() => {
      expect(document.activeElement).toBe(p.outside);
      focusing.destroy();
      p.form.remove();
    });
    closeWhenShown(p.form, close);
    expect(p.form.style.display).toBe('none');
    expect(document.activeElement).toBe(p.number);
    closeWhenShown(p.form, close);
    expect(close).not.toHaveBeenCalled();
    await drawn();
    expect(close).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(p.outside);
  });

  it('is not closed again once that frame is drawn when it was taken out meanwhile (Esc): the next form stays', async () => {
    const p = page();
    const close = vi.fn();
    closeWhenShown(p.form, close);
    p.form.remove();
    await drawn();
    expect(close).not.toHaveBeenCalled();
  });

  it('stays open, shown, when it is opened again before that frame', async () => {
    const p = page();
    const close = vi.fn();
    closeWhenShown(p.form, close);
    keepOpen(p.form);
    expect(p.form.style.display).toBe('');
    await drawn();
    expect(close).not.toHaveBeenCalled();
  });
});
