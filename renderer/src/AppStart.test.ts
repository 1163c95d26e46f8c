// @vitest-environment jsdom
// The campaign list is one round trip away at start: the page asks whether the database is damaged, for the list
// and for the app's facts in the same turn, before any answer (docs/performance.md "Start"), and asks for the list
// once.
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, expect, it, vi } from 'vitest';
import App from './App.svelte';

const api = vi.hoisted(() => {
  const waiting: (() => void)[] = [];
  return {
    sent: [] as string[],
    /** Answers every call sent so far. */
    answerAll: () => waiting.splice(0).forEach((answer) => answer()),
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
    return new Promise((resolve) => api.waiting.push(() => resolve(reply)));
  }),
  onChanged: () => () => {},
}));

afterEach(cleanup);

it('asks for the campaign list with its first call, not after the recovery status answers, and once', async () => {
  render(App);
  await Promise.resolve();
  // Nothing has been answered yet: every call the list needs is already on its way.
  expect(api.sent).toEqual(['recovery:status', 'campaigns:list', 'app:info']);
  api.answerAll();
  await screen.findByRole('link', { name: 'The Drowned Coast' });
  api.answerAll();
  expect(api.sent.filter((name) => name === 'campaigns:list')).toHaveLength(1);
  expect(api.waiting).toHaveLength(0);
});
