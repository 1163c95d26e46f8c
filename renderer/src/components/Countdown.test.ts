// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import Countdown from './Countdown.svelte';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('countdown', () => {
  it('counts 15 seconds down to "Time!" and restarts for a new turn', async () => {
    const view = render(Countdown, { seconds: 15, restartKey: '1:a', label: 'Declare within' });
    expect(screen.getByRole('timer').textContent).toContain('15 s');
    await vi.advanceTimersByTimeAsync(6_000);
    expect(screen.getByRole('timer').getAttribute('aria-label')).toBe('Declare within: 9 seconds left');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(screen.getByRole('timer').textContent).toContain('Time!');
    await view.rerender({ seconds: 15, restartKey: '1:b', label: 'Declare within' });
    await vi.advanceTimersByTimeAsync(400);
    expect(screen.getByRole('timer').textContent).toContain('15 s');
  });

  it('at zero sends the ruleset\'s event once for the turn (Factions: "otherwise they do nothing")', async () => {
    const onZero = vi.fn();
    render(Countdown, { seconds: 15, restartKey: '1:a', label: 'Declare within', onZero });
    await vi.advanceTimersByTimeAsync(14_000);
    expect(onZero).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(onZero).toHaveBeenCalledTimes(1);
  });
});
