// @vitest-environment jsdom
// The campaign list at start shows its campaigns with their rulesets' names, never their ids first: it waits for
// app:info, asked for in the same turn, which now carries only the rulesets' names (docs/performance.md "Start");
// no ruleset's sheet, options or forms are asked for before it shows. (Its own file: the app's facts are fetched
// once per module.)
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, expect, it, vi } from 'vitest';
import App from './App.svelte';

const api = vi.hoisted(() => {
  const waiting = new Map<string, () => void>();
  return {
    sent: [] as string[],
    answer: (name: string) => {
      waiting.get(name)?.();
      waiting.delete(name);
    },
    waiting,
  };
});
vi.mock('./lib/api.ts', () => ({
  send: vi.fn((name: string) => {
    api.sent.push(name);
    const reply =
      name === 'recovery:status' ? { damaged: false }
        : name === 'campaigns:list' ? [{ id: 'c1', name: 'The Drowned Coast', rulesetId: 'enigma', archived: false, characterCount: 4, encounterCount: 2 }]
          : name === 'app:info' ? { version: '0', rulesets: [{ id: 'enigma', name: 'Enigma', summary: '' }] }
            : null;
    return new Promise((resolve) => api.waiting.set(name, () => resolve(reply)));
  }),
  onChanged: () => () => {},
}));

afterEach(cleanup);

it('shows the campaigns once their rulesets are named, and asks for no ruleset before', async () => {
  render(App);
  await Promise.resolve();
  api.answer('recovery:status');
  api.answer('campaigns:list');
  await screen.findByRole('textbox', { name: 'Campaign name' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  // The list has come, the names not yet: no campaign is shown with "enigma" for its ruleset.
  expect(screen.queryByRole('link', { name: 'The Drowned Coast' })).toBeNull();
  expect(screen.queryByText('enigma')).toBeNull();

  api.answer('app:info');
  const campaign = (await screen.findByRole('link', { name: 'The Drowned Coast' })).closest('li')!;
  expect(campaign.querySelector('.badge')!.textContent).toBe('Enigma');
  expect(api.sent).toEqual(['recovery:status', 'campaigns:list', 'app:info']);
});
