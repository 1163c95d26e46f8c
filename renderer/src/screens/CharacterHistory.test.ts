// @vitest-environment jsdom
// A character's history: every injury and wound as a card that says where it came from (the encounter and the
// event), what treated it and whether it healed; then everything that happened to them, in order.
import { cleanup, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CharacterHistory as History } from '../../../core/api/contract.ts';
import { isHarm } from '../../../core/ledger/records.ts';
import type { RecordCategory } from '../../../core/rulesets/types.ts';
import CharacterHistory from './CharacterHistory.svelte';

/** The record kinds rulesets:get sends for the character's ruleset: labels, and which are harm. */
const KINDS: RecordCategory[] = vi.hoisted(() => [
  { key: 'endure', label: 'Endure', harm: true },
  { key: 'glean', label: 'Glean', harm: true },
  { key: 'maxLp', label: 'Temporary LP reduction', harm: true },
  { key: 'cheatDeath', label: 'Cheated death', harm: false },
]);
const api = vi.hoisted(() => ({ history: null as unknown, asked: [] as unknown[] }));
vi.mock('../lib/api.ts', () => ({
  // A function answers as the app does: by what was asked.
  send: vi.fn(async (name: string, input: unknown) => {
    if (name === 'rulesets:get') return { id: 'enigma', records: KINDS };
    api.asked.push(input);
    return typeof api.history === 'function' ? (api.history as (input: unknown) => unknown)(input) : api.history;
  }),
  onChanged: () => () => {},
}));

afterEach(cleanup);

const record = (id: string, extra: Partial<History['records'][number]>): History['records'][number] => ({
  id, name: 'Broken arm', category: 'endure', permanent: false, source: null, entry: null,
  dayGained: 3, sessionGained: 2, dayHealed: null, sessionHealed: null, treatments: [],
  healed: extra.dayHealed != null || extra.sessionHealed != null, ...extra,
});

/** Records with their counts, as the app sends them when it sends all of them. */
const counted = (records: History['records']): Pick<History, 'records' | 'recordCounts'> => {
  const harm = records.filter((r) => isHarm(KINDS, r.category));
  return { records, recordCounts: { open: harm.filter((r) => !r.healed).length, healed: harm.filter((r) => r.healed).length } };
};

const history: History = {
  character: { id: 'berrik', name: 'Berrik', campaignId: 'c1', campaignName: 'The Vault', rulesetId: 'enigma' },
  recordCounts: { open: 2, healed: 1 },
  records: [
    record('r1', {
      source: { encounterId: 'e1', encounterName: 'Bridge ambush', seq: 14, text: 'Berrik survives Mortal Peril and takes an injury.' },
      treatments: [4],
      dayHealed: 5, sessionHealed: 3,
    }),
    record('r2', { name: 'Lost eye', category: 'glean', permanent: true, dayGained: 3, sessionGained: 2, source: { encounterId: 'e1', encounterName: 'Bridge ambush', seq: 20, text: null } }),
    record('r3', { name: 'Cracked rib', category: 'maxLp', dayGained: 6, sessionGained: null }),
    record('r4', { name: 'Cheated death (difficulty 10 → 15)', category: 'cheatDeath', dayGained: 6, sessionGained: null }),
  ],
  entries: [{ seq: 4, day: 4, text: 'Lotty treats Berrik’s Broken arm: 3 → 1 rests.' }],
  items: [
    { kind: 'encounter', at: '2025-03-14T18:10:00.000Z', day: 3, sessionNumber: 2, text: 'Encounter “Bridge ambush” (ended after round 3).', encounterId: 'e1' },
    { kind: 'gained', at: '2025-03-14T19:00:00.000Z', day: 3, sessionNumber: 2, text: 'Berrik gained Broken arm in “Bridge ambush”.', characterId: 'berrik', recordId: 'r1', encounterId: 'e1', seq: 14 },
    { kind: 'treated', at: '2025-03-15T10:00:00.000Z', day: 4, sessionNumber: null, text: 'Lotty treats Berrik’s Broken arm: 3 → 1 rests.', seq: 4, characterIds: ['berrik', 'lotty'] },
    { kind: 'healed', at: '2025-03-16T10:00:00.000Z', day: 5, sessionNumber: 3, text: 'Berrik’s Broken arm healed.', characterId: 'berrik', recordId: 'r1' },
  ],
  itemCount: 4,
};

const text = (element: Element) => element.textContent!.replace(/\s+/g, ' ').trim();

describe('character history', () => {
  beforeEach(() => {
    api.history = history;
  });

  it('leads with the breadcrumb and the character’s name', async () => {
    render(CharacterHistory, { campaignId: 'c1', id: 'berrik' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Berrik' })).toBeTruthy();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(text(crumbs)).toBe('Campaigns › The Vault › Berrik › History');
    expect(within(crumbs).getByRole('link', { name: 'Berrik' }).getAttribute('href')).toBe('#/campaign/c1/character/berrik');
  });

  it('says where an injury came from, what treated it and when it healed', async () => {
    render(CharacterHistory, { campaignId: 'c1', id: 'berrik' });
    const arm = await screen.findByRole('listitem', { name: 'Broken arm' });
    expect(text(arm.querySelector('.gained')!)).toBe('Gained on day 3 in Session 2 — Bridge ambush (Berrik survives Mortal Peril and takes an injury).');
    expect(within(arm).getByRole('link', { name: 'Bridge ambush' }).getAttribute('href')).toBe('#/encounter/e1');
    expect(within(arm).getByText('Endure')).toBeTruthy(); // Enigma's category label
    const treatments = within(arm).getByRole('list', { name: 'What changed Broken arm' });
    expect(text(within(treatments).getByRole('listitem'))).toBe('Day 4 Lotty treats Berrik’s Broken arm: 3 → 1 rests.');
    expect(text(arm)).toContain('Healed on day 5 in Session 3');
    expect(text(arm)).not.toContain('Still open');
  });

  it('says which ledger entry made a record between sessions', async () => {
    api.history = { ...history, records: [record('r5', { name: 'Burnt hand', category: 'maxLp', dayGained: 6, sessionGained: null, entry: { seq: 7, text: 'Berrik is injured on day 6: Burnt hand.' } })] };
    render(CharacterHistory, { campaignId: 'c1', id: 'berrik' });
    const hand = await screen.findByRole('listitem', { name: 'Burnt hand' });
    expect(text(hand.querySelector('.gained')!)).toBe('Gained on day 6 between sessions — in the ledger (Berrik is injured on day 6: Burnt hand).');
    expect(within(hand).queryByRole('link')).toBeNull();
  });

  it('marks a permanent injury and one that is still open, and counts them', async () => {
    render(CharacterHistory, { campaignId: 'c1', id: 'berrik' });
    const eye = await screen.findByRole('listitem', { name: 'Lost eye' });
    expect(within(eye).getByText('Permanent')).toBeTruthy();
    expect(text(eye)).toContain('Never heals');
    expect(text(eye.querySelector('.gained')!)).toBe('Gained on day 3 in Session 2 — Bridge ambush.');
    const rib = screen.getByRole('listitem', { name: 'Cracked rib' });
    expect(text(rib)).toContain('Still open');
    expect(text(rib.querySelector('.gained')!)).toBe('Gained on day 6 between sessions.');
    expect(within(rib).getByText('Temporary LP reduction')).toBeTruthy();
    const section = screen.getByRole('region', { name: 'Injuries and wounds' });
    expect(text(section)).toContain('2 open · 1 healed');
  });

  it('keeps marks that are not harm (cheating death) apart from injuries and wounds', async () => {
    render(CharacterHistory, { campaignId: 'c1', id: 'berrik' });
    const marks = await screen.findByRole('region', { name: 'Other lasting marks' });
    const mark = within(marks).getByRole('listitem', { name: 'Cheated death (difficulty 10 → 15)' });
    expect(within(mark).getByText('Cheated death')).toBeTruthy();
    expect(text(mark)).not.toContain('Still open');
    expect(within(screen.getByRole('region', { name: 'Injuries and wounds' })).queryByText(/Cheated death/)).toBeNull();
  });

  it('lists everything that happened in time order, with session and day', async () => {
    render(CharacterHistory, { campaignId: 'c1', id: 'berrik' });
    const all = await screen.findByRole('region', { name: 'Everything that happened' });
    const items = within(all).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.tag')!.textContent)).toEqual(['⚔Fight', '✖Gained', '✚Treated', '✔Healed']);
    expect(items.map((li) => li.querySelector('.day')!.textContent)).toEqual(['S2 · Day 3', 'S2 · Day 3', 'Day 4', 'S3 · Day 5']);
    expect(within(items[1]!).getByRole('link', { name: 'Open the encounter' }).getAttribute('href')).toBe('#/encounter/e1');
  });

  it('treats a record healed before the clock kept days as healed', async () => {
    api.history = {
      ...history,
      ...counted([record('old', { name: 'Sprain', dayHealed: null, sessionHealed: null, healed: true })]),
      // Its healing is long past the newest things the reply carries.
      items: [],
      itemCount: 900,
    } satisfies History;
    render(CharacterHistory, { campaignId: 'c1', id: 'berrik' });
    const sprain = await screen.findByRole('listitem', { name: 'Sprain' });
    expect(text(sprain)).toContain('Healed');
    expect(text(sprain)).not.toContain('Still open');
  });

  it('says so when nothing has happened yet', async () => {
    api.history = { ...history, ...counted([]), items: [], itemCount: 0 } satisfies History;
    render(CharacterHistory, { campaignId: 'c1', id: 'berrik' });
    expect(await screen.findByText('No injuries or wounds so far.')).toBeTruthy();
    expect(screen.getByText('Nothing recorded yet: Berrik’s story starts with their first encounter.')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Other lasting marks' })).toBeNull();
  });

  it('lists a record’s newest treatments, opens the rest on request, and cuts a long entry short', async () => {
    const rests = Array.from({ length: 9 }, (_, i) => ({ seq: 10 + i, day: 10 + i, text: `Berrik rests: ${'Deep Cut 9 → 8 rests, '.repeat(i === 8 ? 40 : 1)}done.` }));
    api.history = { ...history, records: [record('r9', { name: 'Deep Cut', treatments: rests.map((r) => r.seq) })], entries: rests };
    render(CharacterHistory, { campaignId: 'c1', id: 'berrik' });
    const cut = await screen.findByRole('listitem', { name: 'Deep Cut' });
    const list = () => within(cut).getByRole('list', { name: 'What changed Deep Cut' });
    expect(within(list()).getAllByRole('listitem').map((li) => li.querySelector('.day')!.textContent)).toEqual(['Day 14', 'Day 15', 'Day 16', 'Day 17', 'Day 18']);
    const longest = within(list()).getAllByRole('listitem').at(-1)!;
    expect(text(longest).length).toBeLessThanOrEqual('Day 18 '.length + 200);
    expect(text(longest).endsWith('…')).toBe(true);
    within(cut).getByRole('button', { name: 'Show all 9 treatments (4 earlier)' }).click();
    await vi.waitFor(() => expect(within(list()).getAllByRole('listitem')).toHaveLength(9));
    expect(within(cut).queryByRole('button', { name: /Show all/ })).toBeNull();
  });

  it('shows the open records and the newest healed ones, and the earlier healed on request', async () => {
    const healed = Array.from({ length: 30 }, (_, i) => record(`h${i}`, { name: `Old wound ${i + 1}`, dayHealed: 10 + i }));
    api.history = { ...history, ...counted([...healed.slice(0, 10), record('open', { name: 'Fresh cut' }), ...healed.slice(10)]), items: [], itemCount: 0 };
    render(CharacterHistory, { campaignId: 'c1', id: 'berrik' });
    const list = (await screen.findByRole('heading', { name: 'Injuries and wounds' })).closest('section')!.querySelector('ul')!;
    const names = () => within(list).getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(names()).toHaveLength(25);
    expect(names()).toContain('Fresh cut');
    expect(names()).not.toContain('Old wound 6');
    expect(names().at(-1)).toBe('Old wound 30');
    screen.getByRole('button', { name: 'Show 6 earlier healed records' }).click();
    await vi.waitFor(() => expect(names()).toHaveLength(31));
    expect(names()[0]).toBe('Old wound 1');
    expect(screen.queryByRole('button', { name: /earlier healed/ })).toBeNull();
  });

  it('shows the newest 50 open records beside the healed ones, and the earlier open ones on request', async () => {
    const open = Array.from({ length: 60 }, (_, i) => record(`o${i}`, { name: `Cut ${i + 1}` }));
    api.history = { ...history, ...counted([record('h', { name: 'Old wound', dayHealed: 9 }), ...open]), items: [], itemCount: 0 };
    render(CharacterHistory, { campaignId: 'c1', id: 'berrik' });
    const list = (await screen.findByRole('heading', { name: 'Injuries and wounds' })).closest('section')!.querySelector('ul')!;
    const names = () => within(list).getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(text(screen.getByRole('heading', { name: 'Injuries and wounds' }).parentElement!)).toContain('60 open · 1 healed');
    expect(names()).toHaveLength(51);
    expect(names().slice(0, 2)).toEqual(['Old wound', 'Cut 11']);
    expect(names().at(-1)).toBe('Cut 60');
    screen.getByRole('button', { name: 'Show 10 earlier open records' }).click();
    await vi.waitFor(() => expect(names()).toHaveLength(61));
    expect(names()[1]).toBe('Cut 1');
    expect(screen.queryByRole('button', { name: /earlier open/ })).toBeNull();
  });

  it('asks the app for the earlier records when its reply carried only the newest', async () => {
    const open = Array.from({ length: 60 }, (_, i) => record(`o${i}`, { name: `Cut ${i + 1}` }));
    const healed = Array.from({ length: 30 }, (_, i) => record(`h${i}`, { name: `Old wound ${i + 1}`, dayHealed: 10 + i }));
    // The app's reply: the newest 50 open and 24 healed unless asked for all, with the counts of all.
    api.asked = [];
    api.history = (input: { allRecords?: boolean }) => ({
      ...history, items: [], itemCount: 0, recordCounts: { open: 60, healed: 30 },
      records: input.allRecords ? [...healed, ...open] : [...healed.slice(-24), ...open.slice(-50)],
    });
    render(CharacterHistory, { campaignId: 'c1', id: 'berrik' });
    const list = (await screen.findByRole('heading', { name: 'Injuries and wounds' })).closest('section')!.querySelector('ul')!;
    const names = () => within(list).getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(text(screen.getByRole('heading', { name: 'Injuries and wounds' }).parentElement!)).toContain('60 open · 30 healed');
    expect(names()).toHaveLength(74);
    expect(api.asked).toEqual([{ id: 'berrik' }]);
    screen.getByRole('button', { name: 'Show 10 earlier open records' }).click();
    await vi.waitFor(() => expect(names()).toHaveLength(84));
    expect(api.asked.at(-1)).toEqual({ id: 'berrik', allRecords: true });
    expect(names()).toContain('Cut 1');
    expect(names()).not.toContain('Old wound 6');
    screen.getByRole('button', { name: 'Show 6 earlier healed records' }).click();
    await vi.waitFor(() => expect(names()).toHaveLength(90));
    expect(api.asked).toHaveLength(2);
  });

  it('lists the newest 200 things that happened, and asks for the earlier ones on request', async () => {
    const items = Array.from({ length: 205 }, (_, i) => ({ kind: 'clock' as const, at: `2025-03-14T18:${String(i % 60).padStart(2, '0')}:00.000Z`, day: i, sessionNumber: null, text: `Day ${i} passes.` }));
    // The app's reply: the newest 200 unless asked for all.
    api.asked = [];
    api.history = (input: { allItems?: boolean }) => ({ ...history, items: input.allItems ? items : items.slice(-200), itemCount: 205 });
    render(CharacterHistory, { campaignId: 'c1', id: 'berrik' });
    const list = (await screen.findByRole('heading', { name: 'Everything that happened' })).closest('section')!.querySelector('ol')!;
    expect(within(list).getAllByRole('listitem')).toHaveLength(200);
    expect(text(within(list).getAllByRole('listitem')[0]!)).toContain('Day 5 passes.');
    expect(api.asked).toEqual([{ id: 'berrik' }]);
    screen.getByRole('button', { name: 'Show 5 earlier entries' }).click();
    await vi.waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(205));
    expect(api.asked.at(-1)).toEqual({ id: 'berrik', allItems: true });
    expect(text(within(list).getAllByRole('listitem')[0]!)).toContain('Day 0 passes.');
    expect(screen.queryByRole('button', { name: /earlier entries/ })).toBeNull();
  });
});
