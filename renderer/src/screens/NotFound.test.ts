// @vitest-environment jsdom
// The page opened at an address that leads to no screen, a broken %-escape first: it loads (the router used to throw
// URIError before anything showed), says "No such page" and offers the way back; a later hash change is read alike.
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../lib/api.ts', () => ({
  send: vi.fn(async (name: string) => (name === 'recovery:status' ? { damaged: false } : name === 'campaigns:list' ? [] : name === 'app:info' ? { rulesets: [] } : null)),
  onChanged: () => () => {},
}));

afterEach(cleanup);

describe('no such page', () => {
  it('shows at a malformed %-escape, from the first load and after a hash change', async () => {
    location.hash = '#/%E0%A4%A';
    // The router reads the address when it is first loaded, so the app is loaded only now.
    const { default: App } = await import('../App.svelte');
    render(App);
    expect(await screen.findByRole('heading', { name: 'No such page' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to all campaigns' }).getAttribute('href')).toBe('#/');

    location.hash = '#/';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await vi.waitFor(() => expect(screen.queryByRole('heading', { name: 'No such page' })).toBeNull());
    location.hash = '#/encounter/%E0%A4%A';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(await screen.findByRole('heading', { name: 'No such page' })).toBeTruthy();
  }, 60_000);
});
