// @vitest-environment jsdom
// A text limit beside its field: out of the way while the text is short, shown as it nears the limit, in red and
// read out when nearly full.
import { cleanup, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import LimitHint from './LimitHint.svelte';

afterEach(cleanup);

const hint = () => document.querySelector('small.limit');

describe('limit hint', () => {
  it('stays hidden below three quarters of the limit', () => {
    render(LimitHint, { value: 'x'.repeat(59), max: 80, what: 'name' });
    expect(hint()).toBeNull();
  });

  it('shows how much is used from three quarters on, quietly', () => {
    render(LimitHint, { value: 'x'.repeat(60), max: 80, what: 'name' });
    expect(hint()!.textContent!.trim()).toBe('60/80');
    expect(hint()!.classList.contains('near')).toBe(false);
    expect(hint()!.getAttribute('aria-live')).toBe('off');
    expect(hint()!.getAttribute('title')).toBe('A name is at most 80 characters.');
  });

  it('turns red and is read out past nine tenths', () => {
    render(LimitHint, { value: 'x'.repeat(3_700), max: 4_000, what: 'note' });
    expect(hint()!.textContent!.trim()).toBe('3,700/4,000');
    expect(hint()!.classList.contains('near')).toBe(true);
    expect(hint()!.getAttribute('aria-live')).toBe('polite');
  });
});
