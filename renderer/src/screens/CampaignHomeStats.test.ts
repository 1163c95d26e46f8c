// @vitest-environment jsdom
// The party list's one line of numbers: each under the sheet's short name, a maximum beside its value, and no
// number pushed out by a maximum taking its own place (issue 28, point 9: "STR 10 · STR 10", "Res … Res", WIL dropped).
import { cleanup, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CampaignDetail } from '../../../core/api/contract.ts';
import CampaignHome from './CampaignHome.svelte';

const api = vi.hoisted(() => ({ campaign: null as unknown }));
vi.mock('../lib/api.ts', async () => {
  const { cairnErrantSheet: cairn } = await import('../../../core/rulesets/cairn-errant/sheet.ts');
  const { thrumSheet: thrum } = await import('../../../core/rulesets/thrum/sheet.ts');
  const rulesets = [
    { id: 'cairn-errant', name: 'Cairn-Errant', sheet: cairn, options: [], actionForms: [], recoveryForms: [], readers: [] },
    { id: 'thrum', name: 'Thrum', sheet: thrum, options: [], actionForms: [], recoveryForms: [], readers: [] },
  ];
  return {
    send: vi.fn(async (name: string, input: { id?: string }) => (name === 'campaigns:get' ? api.campaign : name === 'rulesets:get' ? rulesets.find((r) => r.id === input.id) : null)),
    onChanged: () => () => {},
  };
});

afterEach(cleanup);

const campaign = (rulesetId: string, sheet: Record<string, unknown>): CampaignDetail => ({
  id: 'c1', name: 'The Vault', rulesetId, archived: false, createdAt: '', updatedAt: '', characterCount: 1, encounterCount: 0,
  options: {}, party: {}, day: 3, session: null, sessions: [], encounters: [], injuries: [], openInjuries: {}, conditionNames: [], conditionNamesOwn: false,
  characters: [{ id: 'ada', campaignId: 'c1', role: 'pc', name: 'Ada', sheet, condition: {}, archived: false, updatedAt: '' }],
} as unknown as CampaignDetail);

const statsLine = async () => {
  await vi.waitFor(() => expect(document.querySelector('.stats')?.textContent).toBeTruthy(), { timeout: 3000 });
  return document.querySelector('.stats')!.textContent!.replace(/\u00a0/g, ' ');
};

describe('the party list\'s numbers', () => {
  it('Cairn-Errant: a maximum beside its value, and WIL kept', async () => {
    api.campaign = campaign('cairn-errant', { hpMax: 6, hp: 4, armor: 1, strMax: 12, str: 10, dexMax: 11, dex: 11, wilMax: 9, wil: 7 });
    render(CampaignHome, { id: 'c1' });
    expect(await statsLine()).toBe('HP 4/6 · Armor 1 · STR 10/12 · DEX 11/11 · WIL 7/9 · Weapon d6');
  });

  it('Thrum: Resilience and Resolve under names of their own', async () => {
    api.campaign = campaign('thrum', { resilience: 2, evasion: 1, resolve: 3 });
    render(CampaignHome, { id: 'c1' });
    const line = await statsLine();
    expect(line).toContain('Resilience 2');
    expect(line).toContain('Resolve 3');
    expect(line).toContain('Art mod. 0');
  });
});
