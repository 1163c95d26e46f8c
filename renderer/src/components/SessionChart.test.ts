// @vitest-environment jsdom
// The chart of open injuries and wounds per session: a picture with a spoken summary, a tooltip per bar, whole-number
// ticks, and the same numbers in a table a screen reader can walk.
import { cleanup, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import SessionChart from './SessionChart.svelte';

// jsdom has no ResizeObserver (bind:clientWidth uses it): the chart draws at its default width.
beforeEach(() => vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const chart = [
  { sessionNumber: 1, label: 'S1', open: 2, gained: 2, healed: 0 },
  { sessionNumber: 2, label: 'S2', open: 3, gained: 2, healed: 1 },
  { sessionNumber: 3, label: 'S3', open: 1, gained: 0, healed: 2 },
];

const barsOf = (svg: Element, key: string) => [...svg.querySelectorAll(`rect.bar.${key}`)] as SVGRectElement[];

describe('session chart', () => {
  it('says so in a sentence when no session had an injury or wound, instead of an empty axis', () => {
    render(SessionChart, { chart: [{ sessionNumber: 1, label: 'S1', open: 0, gained: 0, healed: 0 }, { sessionNumber: 2, label: 'S2', open: 0, gained: 0, healed: 0 }] });
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByText('No injury or wound was gained, open or healed in any of the 2 sessions so far.')).toBeTruthy();
  });

  it('is one picture whose name says the open count after each session and the highest', () => {
    render(SessionChart, { chart });
    const picture = screen.getByRole('img');
    expect(picture.tagName.toLowerCase()).toBe('svg');
    expect(picture.getAttribute('aria-label')).toBe('Open injuries and wounds at the end of each session: S1 2, S2 3, S3 1. Most: 3 after S2.');
  });

  it('draws open bars in proportion, with gained and healed beside them, each with its own title', () => {
    render(SessionChart, { chart });
    const svg = screen.getByRole('img');
    const open = barsOf(svg, 'open');
    expect(open).toHaveLength(3);
    expect(barsOf(svg, 'gained')).toHaveLength(3);
    expect(barsOf(svg, 'healed')).toHaveLength(3);
    const heights = open.map((r) => Number(r.getAttribute('height')));
    expect(heights[1]! / heights[2]!).toBeCloseTo(3, 1);
    expect(heights[0]! / heights[2]!).toBeCloseTo(2, 1);
    expect(open[1]!.querySelector('title')!.textContent).toBe('S2: 3 injuries and wounds open at the end');
    expect(open[2]!.querySelector('title')!.textContent).toBe('S3: 1 injury or wound open at the end');
    expect(barsOf(svg, 'healed')[2]!.querySelector('title')!.textContent).toBe('S3: 2 healed');
  });

  it('labels the sessions S1, S2, S3 and ticks the axis in whole numbers from 0', () => {
    render(SessionChart, { chart });
    const svg = screen.getByRole('img');
    expect([...svg.querySelectorAll('text.label')].map((t) => t.textContent)).toEqual(['S1', 'S2', 'S3']);
    const ticks = [...svg.querySelectorAll('text.tick')].map((t) => Number(t.textContent));
    expect(ticks[0]).toBe(0);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(3);
    for (const tick of ticks) expect(Number.isInteger(tick)).toBe(true);
  });

  it('repeats the numbers in a table for screen readers', () => {
    render(SessionChart, { chart });
    const table = screen.getByRole('table', { name: 'Injuries and wounds per session' });
    expect(table.classList.contains('visually-hidden')).toBe(true);
    const row = within(table).getByRole('row', { name: /Session 2/ });
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['3', '2', '1']);
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Session', 'Open at the end', 'Gained in the session', 'Healed in the session']);
  });

  it('says so of one session with nothing open, gained or healed', () => {
    render(SessionChart, { chart: [{ sessionNumber: 1, label: 'S1', open: 0, gained: 0, healed: 0 }] });
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByText('No injury or wound was gained, open or healed in the session so far.')).toBeTruthy();
  });

  it('draws the chart once one session had anything, with no bar taller than zero where nothing was', () => {
    render(SessionChart, { chart: [{ sessionNumber: 1, label: 'S1', open: 0, gained: 0, healed: 0 }, { sessionNumber: 2, label: 'S2', open: 0, gained: 1, healed: 1 }] });
    const svg = screen.getByRole('img');
    expect(svg.getAttribute('aria-label')).toBe('Open injuries and wounds at the end of each session: S1 0, S2 0. None so far.');
    for (const rect of svg.querySelectorAll('rect.bar.open')) expect(Number(rect.getAttribute('height'))).toBe(0);
  });

  it('explains an empty chart instead of drawing one', () => {
    render(SessionChart, { chart: [] });
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByText('The chart fills in once the first session has been played.')).toBeTruthy();
  });

  it('summarises a long campaign instead of reading forty numbers, and thins the labels', () => {
    const long = Array.from({ length: 40 }, (_, i) => ({ sessionNumber: i + 1, label: `S${i + 1}`, open: i === 20 ? 9 : 1, gained: 1, healed: 1 }));
    render(SessionChart, { chart: long });
    const svg = screen.getByRole('img');
    expect(svg.getAttribute('aria-label')).toBe('Open injuries and wounds at the end of each session: from 1 after S1 to 1 after S40. Most: 9 after S21.');
    expect(barsOf(svg, 'open')).toHaveLength(40);
    const labels = [...svg.querySelectorAll('text.label')].map((t) => t.textContent);
    expect(labels[0]).toBe('S1');
    expect(labels.length).toBeLessThan(40);
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(41);
  });
});
