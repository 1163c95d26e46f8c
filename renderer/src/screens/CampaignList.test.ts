// @vitest-environment jsdom
// The campaign list: each campaign's card counts its characters and encounters in words a GM reads aloud.
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CampaignSummary } from '../../../core/api/contract.ts';
import CampaignList from './CampaignList.svelte';

const summary = (id: string, name: string, characterCount: number, encounterCount: number): CampaignSummary => ({
  id, name, rulesetId: 'enigma', archived: false, createdAt: '', updatedAt: '', characterCount, encounterCount,
} as unknown as CampaignSummary);

vi.mock('../lib/api.ts', () => ({
  send: vi.fn(async (name: string) => (name === 'campaigns:list'
    ? [summary('c1', 'The Vault', 1, 1), summary('c2', 'Hollow Roads', 3, 0)]
    : name === 'app:info' ? { rulesets: [] } : null)),
  onChanged: () => () => {},
}));

afterEach(cleanup);

describe('campaign list', () => {
  it('counts one character and one encounter in the singular, other counts in the plural', async () => {
    render(CampaignList);
    const card = async (name: string) => (await screen.findByRole('link', { name })).closest('li, article, section, div')!.textContent!.replace(/\s+/g, ' ');
    expect(await card('The Vault')).toContain('1 character · 1 encounter');
    expect(await card('The Vault')).not.toContain('1 encounters');
    expect(await card('Hollow Roads')).toContain('3 characters · 0 encounters');
  });
});
