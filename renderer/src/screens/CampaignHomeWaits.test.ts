// @vitest-environment jsdom
// The campaign home waits for its ruleset's sheet, options and forms (rulesets:get, asked for when the campaign has
// come), so its Recovery link and panels come with the rest instead of after it. (Its own file: a ruleset is fetched
// once per module.)
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, expect, it, vi } from 'vitest';
import type { CampaignDetail } from '../../../core/api/contract.ts';
import CampaignHome from './CampaignHome.svelte';

const api = vi.hoisted(() => {
  let answer: () => void = () => {};
  return {
    sent: [] as string[],
    ruleset: null as unknown,
    answerRuleset: () => answer(),
    waitRuleset: (reply: unknown) => new Promise<unknown>((resolve) => (answer = () => resolve(reply))),
  };
});
vi.mock('../lib/api.ts', () => ({
  send: vi.fn(async (name: string) => {
    api.sent.push(name);
    if (name === 'campaigns:get') return campaign;
    if (name === 'rulesets:get') return api.waitRuleset(api.ruleset);
    return null;
  }),
  onChanged: () => () => {},
}));

const campaign = {
  id: 'c1', name: 'The Vault', rulesetId: 'enigma', archived: false, createdAt: '', updatedAt: '', characterCount: 0, encounterCount: 0,
  options: {}, party: {}, partyBadges: [], day: 3, session: null, sessions: [], encounters: [], injuries: [], openInjuries: {}, conditionNames: [], conditionNamesOwn: false,
  characters: [],
} as unknown as CampaignDetail;

afterEach(cleanup);

it('shows the campaign once its ruleset has come, with its Recovery link', async () => {
  api.ruleset = { id: 'enigma', name: 'Enigma', summary: '', sheet: { fields: [] }, options: [], actionForms: [], severalTargets: null, conditionNames: [], lateInitiative: false, recoveryForms: [{ type: 'rest' }], records: [], readers: [] };
  render(CampaignHome, { id: 'c1' });
  await vi.waitFor(() => expect(api.sent).toContain('campaigns:get'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(screen.queryByRole('heading', { level: 1, name: 'The Vault' })).toBeNull();
  expect(api.sent).toEqual(['campaigns:get', 'rulesets:get']);

  api.answerRuleset();
  await screen.findByRole('heading', { level: 1, name: 'The Vault' });
  expect(screen.getByRole('link', { name: 'Recovery' })).toBeTruthy();
  expect(screen.getByText('Enigma', { selector: '.badge' })).toBeTruthy();
});
