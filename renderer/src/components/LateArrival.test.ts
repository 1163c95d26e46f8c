// @vitest-environment jsdom
// The late-arrival form: where the ruleset's late arrival takes a typed initiative (rulesets:get lateInitiative), an
// optional Initiative field; typed, the total goes with the newcomer, empty, it is rolled.
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EncounterState } from '../lib/encounter.svelte.ts';
import LateArrival from './LateArrival.svelte';

const api = vi.hoisted(() => ({ lateInitiative: true }));
vi.mock('../lib/api.ts', () => ({
  send: vi.fn(async (name: string) => {
    if (name === 'rulesets:get') return { id: 'any-system', lateInitiative: api.lateInitiative };
    if (name === 'campaigns:get') return { characters: [{ id: 'wolf', name: 'Wolf', role: 'npc', archived: false, condition: {} }] };
    return null;
  }),
  onChanged: () => () => {},
}));

afterEach(cleanup);

function lateArrival() {
  const addFromCampaign = vi.fn(async () => {});
  const encounter = { detail: { encounter: { campaignId: 'c1', rulesetId: 'any-system' }, view: { order: [] } }, addFromCampaign } as unknown as EncounterState;
  render(LateArrival, { encounter });
  return addFromCampaign;
}

describe('late arrival', () => {
  it('sends the initiative typed, and none when the field is left empty', async () => {
    api.lateInitiative = true;
    const add = lateArrival();
    await fireEvent.click(screen.getByRole('button', { name: 'Late arrival' }));
    const initiative = await screen.findByRole('spinbutton', { name: 'Initiative (empty: rolled)' });
    await screen.findByRole('option', { name: 'Wolf (template)' });
    await fireEvent.input(initiative, { target: { value: '17' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add to the fight' }));
    expect(add).toHaveBeenLastCalledWith([], [{ templateId: 'wolf', count: 1 }], null, undefined, 17);

    await fireEvent.input(initiative, { target: { value: '' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add to the fight' }));
    expect(add).toHaveBeenLastCalledWith([], [{ templateId: 'wolf', count: 1 }], null, undefined, null);
  });
});
