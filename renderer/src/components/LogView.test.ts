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
