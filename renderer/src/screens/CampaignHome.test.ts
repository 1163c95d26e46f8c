// @vitest-environment jsdom
// The campaign home of a long campaign: the newest encounters, the earlier ones on request, and each party member's
// newest open injuries with how many more their history holds. A thousand rows took the screen a quarter of a
// second to draw (issue 11).
import { cleanup, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CampaignDetail, EncounterSummary, InjuryRecord } from '../../../core/api/contract.ts';
import CampaignHome from './CampaignHome.svelte';

const api = vi.hoisted(() => ({ campaign: null as unknown }));
vi.mock('../lib/api.ts', () => ({
  send: vi.fn(async (name: string) => (name === 'campaigns:get' ? api.campaign : name === 'app:info' ? { rulesets: [] } : null)),
  onChanged: () => () => {},
}));

afterEach(cleanup);

const encounter = (n: number): EncounterSummary => ({
  id: `e${n}`, campaignId: 'c1', name: `Skirmish ${n}`, phase: 'ended', round: 3, eventCount: 40, updatedAt: '', createdAt: '',
} as unknown as EncounterSummary);
const injury = (n: number): InjuryRecord => ({
  id: `i${n}`, characterId: 'berrik', name: `Cut ${n}`, category: 'endure', data: { restsRemaining: 2 }, sourceEncounterId: null, sourceSeq: null,
  createdAt: `2025-03-14T18:00:${String(n).padStart(2, '0')}.000Z`, healedAt: null,
});

const campaign = (encounters: number, openInjuries: number, sent: number): CampaignDetail => ({
  id: 'c1', name: 'The Vault', rulesetId: 'enigma', archived: false, createdAt: '', updatedAt: '', characterCount: 1, encounterCount: encounters,
  options: {}, party: {}, day: 3, session: null, sessions: [], conditionNames: [], conditionNamesOwn: false,
  characters: [{ id: 'berrik', campaignId: 'c1', role: 'pc', name: 'Berrik', sheet: {}, condition: {}, archived: false, updatedAt: '' }],
  // Newest first, as the app lists them.
  encounters: Array.from({ length: encounters }, (_, i) => encounter(encounters - i)),
  injuries: Array.from({ length: sent }, (_, i) => injury(openInjuries - sent + i + 1)),
  openInjuries: openInjuries ? { berrik: openInjuries } : {},
} as unknown as CampaignDetail);

describe('campaign home', () => {
  beforeEach(() => {
    api.campaign = campaign(45, 12, 8);
  });

  it('lists the newest 30 encounters, and the earlier ones on request', async () => {
    render(CampaignHome, { id: 'c1' });
    const list = (await screen.findByRole('heading', { name: 'Encounters' })).closest('section')!.querySelector('ul')!;
    const names = () => within(list).getAllByRole('link', { name: /^Skirmish/ }).map((a) => a.textContent);
    expect(names()).toHaveLength(30);
    expect(names()[0]).toBe('Skirmish 45');
    expect(names().at(-1)).toBe('Skirmish 16');
    screen.getByRole('button', { name: 'Show 15 earlier encounters' }).click();
    await vi.waitFor(() => expect(names()).toHaveLength(45));
    expect(names().at(-1)).toBe('Skirmish 1');
    expect(screen.queryByRole('button', { name: /earlier encounters/ })).toBeNull();
  });

  it('shows a party member’s newest open injuries and links to the history for the rest', async () => {
    render(CampaignHome, { id: 'c1' });
    const party = (await screen.findByRole('heading', { name: 'Party' })).closest('section')!;
    const badges = [...party.querySelectorAll('.badge.injury')].map((b) => b.textContent!.split(' · ')[0]);
    expect(badges).toEqual(['Cut 5', 'Cut 6', 'Cut 7', 'Cut 8', 'Cut 9', 'Cut 10', 'Cut 11', 'Cut 12']);
    expect(within(party).getByRole('link', { name: '+4 more open' }).getAttribute('href')).toBe('#/campaign/c1/character/berrik/history');
  });

  it('shows a short list whole, with no button and no link for more', async () => {
    api.campaign = campaign(3, 2, 2);
    render(CampaignHome, { id: 'c1' });
    const party = (await screen.findByRole('heading', { name: 'Party' })).closest('section')!;
    expect(party.querySelectorAll('.badge.injury')).toHaveLength(2);
    expect(within(party).queryByRole('link', { name: /more open/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /earlier encounters/ })).toBeNull();
  });

  it('draws the party figures the campaign carries, whatever its ruleset, each with its tooltip', async () => {
    api.campaign = { ...campaign(1, 0, 0), rulesetId: 'any', partyBadges: [{ label: 'Doom', value: '4', title: 'The doom track' }, { label: 'Supply', value: '2 days', title: 'Food left' }] };
    render(CampaignHome, { id: 'c1' });
    const doom = await screen.findByText('Doom 4');
    expect(doom.getAttribute('title')).toBe('The doom track');
    expect(screen.getByText('Supply 2 days').getAttribute('title')).toBe('Food left');
  });
});
