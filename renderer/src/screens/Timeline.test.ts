// @vitest-environment jsdom
// The campaign timeline: the chart on top, then each session with what happened in it, in order, linked to the
// encounters; and an empty campaign says what to do next.
import { cleanup, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CampaignDetail, CampaignTimeline, SessionSummary } from '../../../core/api/contract.ts';
import Timeline from './Timeline.svelte';

const api = vi.hoisted(() => ({ timeline: null as unknown, campaign: null as unknown, asked: [] as unknown[] }));
vi.mock('../lib/api.ts', () => ({
  // A function answers as the app does: by what was asked.
  send: vi.fn(async (name: string, input: unknown) => {
    if (name !== 'campaigns:timeline') return api.campaign;
    api.asked.push(input);
    return typeof api.timeline === 'function' ? (api.timeline as (input: unknown) => unknown)(input) : api.timeline;
  }),
  onChanged: () => () => {},
}));

beforeEach(() => vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const session = (number: number, extra: Partial<SessionSummary>): SessionSummary => ({
  id: `s${number}`, number, title: `Session ${number}`, date: '2025-03-14', notes: '', startDay: 1, endDay: 1,
  startedAt: '2025-03-14T18:00:00.000Z', endedAt: '2025-03-14T22:00:00.000Z', ...extra,
});

const campaign = { id: 'c1', name: 'The Vault', characters: [{ id: 'berrik', name: 'Berrik' }, { id: 'lotty', name: 'Lotty' }] } as unknown as CampaignDetail;

const timeline: CampaignTimeline = {
  campaignId: 'c1',
  campaignName: 'The Vault',
  groups: [
    {
      session: session(1, { title: 'Bridge ambush', notes: 'The goblins fled east.', startDay: 1, endDay: 4 }),
      items: [
        { kind: 'clock', at: '2025-03-14T18:00:00.000Z', day: 1, sessionNumber: 1, text: 'Session 1 starts on day 1.', seq: 1, characterIds: [] },
        { kind: 'encounter', at: '2025-03-14T18:10:00.000Z', day: 1, sessionNumber: 1, text: 'Encounter “Bridge” (ended after round 3).', encounterId: 'e1' },
        { kind: 'gained', at: '2025-03-14T19:00:00.000Z', day: 1, sessionNumber: 1, text: 'Berrik gained Broken arm in “Bridge”.', characterId: 'berrik', recordId: 'r1', encounterId: 'e1', seq: 12 },
        { kind: 'treated', at: '2025-03-14T20:00:00.000Z', day: 3, sessionNumber: 1, text: 'Lotty treats Berrik’s Broken arm.', seq: 2, characterIds: ['berrik', 'lotty'] },
      ],
      itemCount: 4,
    },
    { session: session(2, { startDay: 5, endDay: null, endedAt: null }), items: [], itemCount: 0 },
    { session: null, items: [{ kind: 'recovery', at: '2025-03-20T10:00:00.000Z', day: 4, sessionNumber: null, text: 'The party rests.', seq: 3, characterIds: ['berrik'] }], itemCount: 1 },
  ],
  chart: [
    { sessionNumber: 1, label: 'S1', open: 1, gained: 1, healed: 0 },
    { sessionNumber: 2, label: 'S2', open: 1, gained: 0, healed: 0 },
  ],
};

describe('campaign timeline', () => {
  beforeEach(() => {
    api.timeline = timeline;
    api.campaign = campaign;
  });

  it('leads with the breadcrumb and the chart of open injuries per session', async () => {
    render(Timeline, { campaignId: 'c1' });
    const crumbs = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbs.textContent!.replace(/\s+/g, ' ').trim()).toBe('Campaigns › The Vault › Timeline');
    expect(within(crumbs).getByRole('link', { name: 'The Vault' }).getAttribute('href')).toBe('#/campaign/c1');
    expect(screen.getByRole('img').getAttribute('aria-label')).toContain('S1 1, S2 1');
  });

  it('shows each session with its title, days and notes, and its items in order with their kind and day', async () => {
    render(Timeline, { campaignId: 'c1' });
    const first = await screen.findByRole('region', { name: 'Session 1 — Bridge ambush' });
    expect(first.textContent).toContain('day 1 → day 4');
    expect(first.textContent).toContain('The goblins fled east.');
    const items = within(first).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.tag')!.textContent)).toEqual(['◷Clock', '⚔Fight', '✖Gained', '✚Treated']);
    expect(items[3]!.textContent).toContain('Day 3');
    expect(items[3]!.textContent).toContain('Lotty treats Berrik’s Broken arm.');
  });

  it('links fights and gained injuries to their encounter, and a character’s item to their history', async () => {
    render(Timeline, { campaignId: 'c1' });
    const first = await screen.findByRole('region', { name: 'Session 1 — Bridge ambush' });
    expect(within(first).getByRole('link', { name: 'Encounter “Bridge” (ended after round 3).' }).getAttribute('href')).toBe('#/encounter/e1');
    const gained = within(first).getAllByRole('listitem')[2]!;
    expect(within(gained).getByRole('link', { name: 'Open the encounter' }).getAttribute('href')).toBe('#/encounter/e1');
    expect((await within(gained).findByRole('link', { name: 'Berrik’s history' })).getAttribute('href')).toBe('#/campaign/c1/character/berrik/history');
  });

  it('marks the session being played and says when nothing has happened in it yet', async () => {
    render(Timeline, { campaignId: 'c1' });
    const playing = await screen.findByRole('region', { name: 'Session 2' });
    expect(playing.textContent).toContain('day 5 → now');
    expect(playing.textContent).toContain('Playing now');
    expect(playing.textContent).toContain('Nothing recorded in this session yet.');
  });

  it('ends with what happened outside any session', async () => {
    render(Timeline, { campaignId: 'c1' });
    const outside = await screen.findByRole('region', { name: 'Outside any session' });
    expect(within(outside).getByRole('listitem').textContent).toContain('The party rests.');
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual(['Session 1 — Bridge ambush', 'Session 2', 'Outside any session']);
  });

  it('shows the newest 200 things of a long session, and asks for the earlier ones on request', async () => {
    const items = Array.from({ length: 230 }, (_, i) => ({ kind: 'clock' as const, at: `2025-03-14T18:00:${String(i % 60).padStart(2, '0')}.000Z`, day: i + 1, sessionNumber: 1, text: `Day ${i + 1} passes.`, seq: i + 1, characterIds: [] }));
    // The app's reply: each session's newest 200 unless asked for all.
    api.asked = [];
    api.timeline = (input: { allItems?: boolean }) => ({ ...timeline, groups: [{ session: session(1, {}), items: input.allItems ? items : items.slice(-200), itemCount: 230 }] });
    render(Timeline, { campaignId: 'c1' });
    const list = (await screen.findByRole('heading', { name: 'Session 1' })).closest('section')!.querySelector('ol')!;
    expect(within(list).getAllByRole('listitem')).toHaveLength(200);
    expect(within(list).getAllByRole('listitem')[0]!.textContent).toContain('Day 31 passes.');
    expect(api.asked).toEqual([{ id: 'c1' }]);
    screen.getByRole('button', { name: 'Show 30 earlier entries' }).click();
    await vi.waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(230));
    expect(api.asked.at(-1)).toEqual({ id: 'c1', allItems: true });
    expect(within(list).getAllByRole('listitem')[0]!.textContent).toContain('Day 1 passes.');
  });

  it('tells the GM how to start when there are no sessions yet', async () => {
    api.timeline = { campaignId: 'c1', campaignName: 'The Vault', groups: [], chart: [] } satisfies CampaignTimeline;
    render(Timeline, { campaignId: 'c1' });
    const hint = await screen.findByText(/No sessions yet: start one on the/);
    expect(within(hint).getByRole('link', { name: 'campaign home' }).getAttribute('href')).toBe('#/campaign/c1');
    expect(screen.queryByRole('img')).toBeNull();
  });
});
