// @vitest-environment jsdom
// A combatant's pool bar with temporary points (5e's temporary HP): "+5 temp" in the figures and in what a screen
// reader reads, a segment of its own after the current points, the bar scaled to hold them past the maximum; none
// of it without temporary points.
import { cleanup, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import PoolBar from './PoolBar.svelte';

afterEach(cleanup);

const pool = () => document.querySelector('.pool')!;
const width = (selector: string) => {
  const bar = pool().querySelector<HTMLElement>(selector);
  return bar ? `${parseFloat(bar.style.width).toFixed(1)}%` : undefined;
};
const text = () => pool().textContent!.replace(/\s+/g, ' ').trim();

describe('pool bar', () => {
  it('without temporary points: the figures and one fill, as ever', () => {
    render(PoolBar, { pool: { label: 'HP', current: 6, max: 12 } });
    expect(text()).toBe('HP 6/12 bloodied');
    expect(width('.fill')).toBe('50.0%');
    expect(pool().querySelector('[data-testid="temp-fill"]')).toBeNull();
  });

  it('temporary points follow the current ones on the bar, and the figures say "+5 temp"', () => {
    render(PoolBar, { pool: { label: 'HP', current: 10, max: 20, temp: 5 } });
    expect(pool().querySelector('.temp')!.textContent).toBe('+5 temp (temporary HP, lost first)');
    expect(text()).toBe('HP 10/20 +5 temp (temporary HP, lost first) bloodied');
    expect(width('.fill')).toBe('50.0%');
    expect(width('[data-testid="temp-fill"]')).toBe('25.0%');
  });

  it('past the maximum the bar holds them all: 18 of 20 and 6 temporary on a scale of 24', () => {
    render(PoolBar, { pool: { label: 'HP', current: 18, max: 20, temp: 6 } });
    expect(width('.fill')).toBe('75.0%');
    expect(width('[data-testid="temp-fill"]')).toBe('25.0%');
  });
});
