// @vitest-environment jsdom
// The runner's log stays on its newest line by itself (a column-reverse scroller rests there): a new line sets the
// scroll position only when the GM had scrolled back. Setting it on every write made the browser lay the page out at
// once inside the update that shows the write (a forced layout on every next turn, damage and undo).
import { cleanup, fireEvent, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../../core/api/contract.ts';
import LogView from './LogView.svelte';

afterEach(cleanup);

const line = (seq: number): LogEntry => ({ seq, round: 5, kind: 'damage', text: `Line ${seq}.` });

/** The scroller with its position kept in the test, and every position the view set on it. */
function watched(scroller: HTMLElement) {
  const state = { top: 0, writes: [] as number[] };
  Object.defineProperty(scroller, 'scrollTop', {
    get: () => state.top,
    set: (value: number) => {
      state.writes.push(value);
      state.top = value;
    },
  });
  return state;
}

describe('the runner log', () => {
  it('sets no scroll position for a new line while it rests on the newest', async () => {
    const view = render(LogView, { entries: [line(1), line(2)] });
    const scroll = watched(view.getByTestId('log-scroller'));
    await view.rerender({ entries: [line(1), line(2), line(3)] });
    await view.rerender({ entries: [line(1), line(2)] });
    expect(scroll.writes).toEqual([]);
  });

  it('brings a GM who scrolled back to the new line', async () => {
    const view = render(LogView, { entries: [line(1), line(2)] });
    const scroller = view.getByTestId('log-scroller');
    const scroll = watched(scroller);
    scroll.top = -300;
    await fireEvent.scroll(scroller);
    await view.rerender({ entries: [line(1), line(2), line(3)] });
    expect(scroll.writes).toEqual([0]);
    // Back on the newest line (the scroll that brought it there says so), the next line sets nothing.
    await fireEvent.scroll(scroller);
    await view.rerender({ entries: [line(1), line(2), line(3), line(4)] });
    expect(scroll.writes).toEqual([0]);
  });
});

// A line that skips its layout while out of view (content-visibility: auto) and starts or stops skipping in a write's
// frame makes the browser lay the page out twice in that frame: once as styled, once after it found the line in or out
// of view. The newest lines never skip (they are in view), and the line where they start moves in one write of many.
describe('the runner log’s newest lines', () => {
  /** Each line's `recent` mark, by its text. */
  const marks = (container: HTMLElement) => new Map([...container.querySelectorAll('li')].map((li) => [li.textContent, li.classList.contains('recent')]));

  it('are always drawn, and which lines they are changes in at most one write of eight', async () => {
    let entries = Array.from({ length: 100 }, (_, i) => line(i + 1));
    const view = render(LogView, { entries, limit: 100 });
    let before = marks(view.container);
    let writesThatMoved = 0;
    for (let seq = 101; seq <= 140; seq += 1) {
      // One write: a new line, the oldest dropped (the runner keeps its newest 100).
      entries = [...entries.slice(1), line(seq)];
      await view.rerender({ entries, limit: 100 });
      const after = marks(view.container);
      const items = [...view.container.querySelectorAll('li')];
      for (const li of items.slice(-16)) expect(li.classList.contains('recent')).toBe(true);
      if ([...after].some(([text, recent]) => before.has(text) && before.get(text) !== recent)) writesThatMoved += 1;
      before = after;
    }
    expect(writesThatMoved).toBeGreaterThan(0);
    expect(writesThatMoved).toBeLessThanOrEqual(40 / 8);
  });

  it('are the newest again after an undo takes lines away', async () => {
    const entries = Array.from({ length: 60 }, (_, i) => line(i + 1));
    const view = render(LogView, { entries, limit: 100 });
    await view.rerender({ entries: entries.slice(0, 30), limit: 100 });
    const items = [...view.container.querySelectorAll('li')];
    for (const li of items.slice(-16)) expect(li.classList.contains('recent')).toBe(true);
  });
});
