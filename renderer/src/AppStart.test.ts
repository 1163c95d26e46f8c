// @vitest-environment jsdom
// The campaign list is one round trip away at start: the page asks whether the database is damaged, for the list
// and for the app's facts in the same turn, before any answer (docs/performance.md "Start"), and asks for the list
// once. The app's facts name the rulesets and no more: the list waits for them, and shows its campaigns with their
// rulesets' names, never their ids first; no ruleset's sheet, options or forms are asked for before it shows.
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, expect, it, vi } from 'vitest';
import App from './App.svelte';

const api = vi.hoisted(() => {
  const waiting: { name: string; answer: () => void }[] = [];
  return {
    sent: [] as string[],
    /** Answers every call sent so far. */
    answerAll: () => waiting.splice(0).forEach(({ answer }) => answer()),
    /** Answers the calls of this name sent so far. */
    answer: (name: string) => waiting.filter((call) => call.name === name).forEach((call) => {
      waiting.splice(waiting.indexOf(call), 1);
      call.answer();
    }),
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
    return new Promise((resolve) => api.waiting.push({ name, answer: () => resolve(reply) }));
  }),
  onChanged: () => () => {},
}));

afterEach(cleanup);

it('asks for the campaign list and the rulesets\' names with its first call, and shows the list once both have come', async () => {
  render(App);
  await Promise.resolve();
  // Nothing has been answered yet: every call the list needs is already on its way.
  expect(api.sent).toEqual(['recovery:status', 'campaigns:list', 'app:info']);
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
  api.answerAll();
  // The list asked for once, and no ruleset's sheet, options or forms before it showed.
  expect(api.sent).toEqual(['recovery:status', 'campaigns:list', 'app:info']);
  expect(api.waiting).toHaveLength(0);
});
