// @vitest-environment jsdom
// Create campaign waits for the app to say which rulesets it has. Before app:info answers there is no ruleset to
// create a campaign of: the button is disabled and Enter in the name field sends nothing, rather than sending an
// empty ruleset the app refuses. (Its own file: the app facts are fetched once per module.)
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, expect, it, vi } from 'vitest';
import CampaignList from './CampaignList.svelte';

const api = vi.hoisted(() => {
  let answer: (info: unknown) => void = () => {};
  return {
    sent: [] as string[],
    created: [] as unknown[],
    info: new Promise<unknown>((resolve) => (answer = resolve)),
    answerInfo: (info: unknown) => answer(info),
  };
});
vi.mock('../lib/api.ts', () => ({
  send: vi.fn(async (name: string, input: unknown) => {
    api.sent.push(name);
    if (name === 'campaigns:list') return [];
    if (name === 'app:info') return api.info;
    if (name === 'campaigns:create') {
      api.created.push(input);
      return { id: 'c1', name: 'x', rulesetId: 'zeta' };
    }
    return null;
  }),
  onChanged: () => () => {},
}));

afterEach(cleanup);

it('keeps Create campaign disabled, and Enter harmless, until the rulesets are known', async () => {
  render(CampaignList);
  const name = await screen.findByRole('textbox', { name: 'Campaign name' });
  const button = screen.getByRole('button', { name: 'Create campaign' }) as HTMLButtonElement;
  await vi.waitFor(() => expect(api.sent).toContain('app:info'));
  expect(button.disabled).toBe(true);

  await fireEvent.input(name, { target: { value: 'The Vault' } });
  await fireEvent.submit(name.closest('form')!);
  await fireEvent.click(button);
  expect(api.created).toEqual([]);

  api.answerInfo({ rulesets: [{ id: 'zeta', name: 'Zeta', summary: 'The first registered.' }] });
  await vi.waitFor(() => expect(button.disabled).toBe(false));
  await fireEvent.click(button);
  await vi.waitFor(() => expect(api.created).toEqual([{ name: 'The Vault', rulesetId: 'zeta' }]));
});
