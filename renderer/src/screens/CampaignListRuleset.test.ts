// @vitest-environment jsdom
// A new campaign plays the first ruleset the app registers (from app:info) until the GM picks another: the list
// of rulesets, and so the default, is the app's to say.
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, expect, it, vi } from 'vitest';
import CampaignList from './CampaignList.svelte';

const api = vi.hoisted(() => ({ created: [] as unknown[] }));
vi.mock('../lib/api.ts', () => ({
  send: vi.fn(async (name: string, input: unknown) => {
    if (name === 'campaigns:list') return [];
    if (name === 'app:info') {
      return { rulesets: [
        { id: 'zeta', name: 'Zeta', summary: 'The first registered.' },
        { id: 'alpha', name: 'Alpha', summary: 'The second.' },
      ] };
    }
    if (name === 'campaigns:create') {
      api.created.push(input);
      return { id: `c${api.created.length}`, name: 'x', rulesetId: 'zeta' };
    }
    return null;
  }),
  onChanged: () => () => {},
}));

afterEach(cleanup);

it('creates a campaign of the first registered ruleset, or of the one the GM picks', async () => {
  render(CampaignList);
  const select = (await screen.findByRole('combobox', { name: 'Ruleset' })) as HTMLSelectElement;
  await vi.waitFor(() => expect(select.value).toBe('zeta'));
  expect(screen.getByText('The first registered.')).toBeTruthy();
  const name = screen.getByRole('textbox', { name: 'Campaign name' });
  await fireEvent.input(name, { target: { value: 'The Vault' } });
  await fireEvent.click(screen.getByRole('button', { name: 'Create campaign' }));
  await vi.waitFor(() => expect(api.created).toEqual([{ name: 'The Vault', rulesetId: 'zeta' }]));

  await fireEvent.change(select, { target: { value: 'alpha' } });
  expect(await screen.findByText('The second.')).toBeTruthy();
  await fireEvent.input(name, { target: { value: 'Hollow Roads' } });
  await fireEvent.click(screen.getByRole('button', { name: 'Create campaign' }));
  await vi.waitFor(() => expect(api.created).toEqual([{ name: 'The Vault', rulesetId: 'zeta' }, { name: 'Hollow Roads', rulesetId: 'alpha' }]));
});
