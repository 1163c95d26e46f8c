// @vitest-environment jsdom
// The full log screen on a 100,000-line fight: it asks for the page in view, draws only the lines in view, keeps a
// few pages, and reads the page where the GM scrolls to (issue 30: it used to fetch and keep every line).
import { cleanup, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LogPage } from '../../../core/api/contract.ts';
import EncounterLog from './EncounterLog.svelte';

const LINES = 100_000;
const api = vi.hoisted(() => ({ pages: [] as { from: number; count: number; filter?: unknown }[] }));
vi.mock('../lib/api.ts', () => ({
  send: vi.fn(async (name: string, input: { from: number; count: number; filter?: { query: string } }) => {
    if (name === 'encounters:get') return { encounter: { campaignId: 'c1', campaignName: 'The Vault', name: 'The long fight' }, view: { order: [] } };
    if (name === 'encounters:summary') return [];
    if (name !== 'encounters:logPage') throw new Error(`unexpected ${name}`);
    api.pages.push(input);
    // Line n is in round 1 + n / 50; a search for "line 7" matches every line numbered 7, 70-79, 700-799, ...
    const all = (n: number) => ({ seq: n + 1, round: 1 + Math.floor(n / 50), kind: 'condition' as const, text: `Line ${n} of the fight.` });
    const query = input.filter?.query.toLowerCase();
    const view = query ? Array.from({ length: LINES }, (_, n) => all(n)).filter((l) => l.text.toLowerCase().includes(query)) : null;
    const shown = view ? view.length : LINES;
    const lines = Array.from({ length: Math.max(0, Math.min(input.count, shown - input.from)) }, (_, i) => {
      const index = input.from + i;
      const line = view ? view[index]! : all(index);
      const before = index === 0 ? null : view ? view[index - 1]! : all(index - 1);
      return { ...line, index, opensRound: before === null || before.round !== line.round };
    });
    const page: LogPage = { lines, shown, lineCount: LINES, eventCount: LINES, version: 'v1' };
    return page;
  }),
  onChanged: () => () => {},
}));

beforeAll(() => {
  globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} };
});
afterEach(() => {
  cleanup();
  api.pages = [];
});

const drawnTexts = () => [...screen.getByRole('list', { name: 'Full encounter log' }).querySelectorAll('li')].map((li) => li.textContent?.trim() ?? '');

describe('EncounterLog, windowed', () => {
  it('opens on the first page alone: a few dozen lines drawn of 100,000, with the round heading', async () => {
    render(EncounterLog, { id: 'e1' });
    await waitFor(() => expect(screen.getByText('100,000 of 100,000 lines')).toBeTruthy());
    await waitFor(() => expect(drawnTexts()[1]).toBe('Line 0 of the fight.'));
    expect(drawnTexts()[0]).toBe('Round 1');
    expect(api.pages).toEqual([{ id: 'e1', from: 0, count: 100 }]);
    expect(drawnTexts().length).toBeLessThan(60);
  });

  it('reads the page where the GM scrolls to, and only that one', async () => {
    render(EncounterLog, { id: 'e1' });
    await waitFor(() => expect(drawnTexts()[1]).toBe('Line 0 of the fight.'));
    const scroller = screen.getByRole('region', { name: 'Log lines' });
    scroller.scrollTop = 61_234 * 34;
    scroller.dispatchEvent(new Event('scroll'));
    await waitFor(() => expect(drawnTexts()).toContain('Line 61234 of the fight.'));
    // The lines drawn run in order around the top line (8 before it), with Round 1,225's heading above line 61,200.
    const texts = drawnTexts().filter((t) => t.startsWith('Line'));
    expect(texts[0]).toBe('Line 61226 of the fight.');
    expect(api.pages.map((p) => p.from)).toEqual([0, 61_200]);
  });

  it('asks the app for the lines a search finds, numbered in that view', async () => {
    render(EncounterLog, { id: 'e1' });
    await waitFor(() => expect(drawnTexts()[1]).toBe('Line 0 of the fight.'));
    const search = screen.getByRole('searchbox', { name: 'Search the log' }) as HTMLInputElement;
    search.value = 'LINE 7 ';
    search.dispatchEvent(new Event('input'));
    await waitFor(() => expect(screen.getByText('1 of 100,000 lines')).toBeTruthy());
    expect(drawnTexts()).toEqual(['Round 1', 'Line 7 of the fight.']);
    expect(screen.getByRole('list', { name: 'Full encounter log' }).querySelector('mark')?.textContent).toBe('Line 7');
    expect(api.pages.at(-1)).toEqual({ id: 'e1', from: 0, count: 100, filter: { kind: 'all', combatant: null, query: 'LINE 7 ' } });
  });
});
