// Issue 28, point 9 (the campaign home's encounters: when each was played, a Resume link for a fight in progress)
// and point 10 — the campaign timeline in Chromium at 1280×800: a session's events in the order they happened
// (a fight prepared on day 1 and fought on day 2 is listed where it was fought), and a chart whose bars stay readable
// with a single session. The campaign is made through the real API; the timeline is read as a GM reads it.
import { expect, test } from '@playwright/test';
import { apiOf, useServer } from './fixtures.ts';
import type { RunningServer } from './server.ts';

const gmw = useServer('timeline');
let server: RunningServer;
test.beforeAll(async () => {
  server = await gmw.start('timeline.sqlite');
});

type Row = { id: string; name: string };

test('one session: its events in the order they happened, its bars readable', async ({ page, request }) => {
  const api = apiOf(request, server);
  const campaign = await api<Row>('campaigns:create', { name: 'The Drowned Vault', rulesetId: 'enigma' });
  const berrik = await api<Row>('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10 } });
  const goblin = await api<Row>('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
  await api('ledger:append', { campaignId: campaign.id, event: { type: 'SESSION_START', title: 'Into the vault' } });
  const encounter = await api<Row>('encounters:create', { campaignId: campaign.id, name: 'Bridge' });
  await api('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
  await api('ledger:append', { campaignId: campaign.id, event: { type: 'ADVANCE_DAYS', days: 1 } });
  const started = await api<{ view: { order: Row[] } }>('encounters:append', { id: encounter.id, event: { type: 'START' } });
  const id = started.view.order.find((c) => c.name === 'Berrik')!.id;
  await api('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: id, amount: 20, source: 'trap' } });
  await api('encounters:append', { id: encounter.id, event: { type: 'RESOLVE_PERIL', id, choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: 'Sprained Ankle', category: 'speed', baseRoll: 1 } } });
  await api('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' } });

  await page.goto(server.launchUrl);
  await page.goto(`${server.launchUrl}#/campaign/${campaign.id}/timeline`);
  const session = page.getByRole('region', { name: 'Session 1 — Into the vault' });
  const lines = session.getByRole('listitem');
  await expect(lines).toHaveCount(5);
  const texts = await lines.allInnerTexts();
  const order = ['Into the vault starts', 'A day passes: day 1 → day 2.', 'Encounter “Bridge”', 'Berrik gained Sprained Ankle', 'carried onto the campaign'];
  order.forEach((words, i) => expect(texts[i], `line ${i + 1}`).toContain(words));
  // The fight is on the day it was fought.
  await expect(lines.nth(2)).toContainText('Day 2');

  // One session: its three bars are wide enough to read and the chart is no wider than it needs.
  const chart = page.getByRole('region', { name: 'Chart of open injuries and wounds' });
  await chart.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/timeline-one-session.png', fullPage: true });
  const bars = chart.locator('rect.bar');
  await expect(bars).toHaveCount(3);
  for (const bar of await bars.all()) {
    const box = (await bar.boundingBox())!;
    expect(box.width, 'bar width').toBeGreaterThanOrEqual(24);
  }
  const first = (await bars.first().boundingBox())!;
  const last = (await bars.last().boundingBox())!;
  const svg = (await chart.locator('svg').boundingBox())!;
  // The group of bars sits beside its axis, not lost in the middle of 1 000 px of empty plot.
  expect(last.x + last.width - svg.x, 'from the axis to the last bar').toBeLessThanOrEqual(420);
  expect(first.x - svg.x).toBeGreaterThan(30);
});

test('the campaign home lists each encounter with its session, date and day, and a Resume link for a fight in progress', async ({ page, request }) => {
  const api = apiOf(request, server);
  const campaign = await api<Row>('campaigns:create', { name: 'Harbour Lights', rulesetId: 'enigma' });
  const ash = await api<Row>('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
  const gull = await api<Row>('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Gull', sheet: {} });
  await api('ledger:append', { campaignId: campaign.id, event: { type: 'SESSION_START', date: '2026-11-20' } });
  await api('ledger:append', { campaignId: campaign.id, event: { type: 'ADVANCE_DAYS', days: 2 } });
  const pier = await api<Row>('encounters:create', { campaignId: campaign.id, name: 'Pier' });
  await api('encounters:addFromCampaign', { id: pier.id, pcIds: [ash.id], npcs: [{ templateId: gull.id, count: 1 }] });
  await api('encounters:append', { id: pier.id, event: { type: 'START' } });
  await api<Row>('encounters:create', { campaignId: campaign.id, name: 'Lighthouse' });

  await page.goto(`${server.launchUrl}#/campaign/${campaign.id}`);
  const encounters = page.getByRole('region', { name: 'Encounters' });
  const pierRow = encounters.getByRole('listitem').filter({ hasText: 'Pier' });
  await expect(pierRow).toContainText('In progress · round 1');
  await expect(pierRow).toContainText(/Session 1 · Nov 20, 2026 · day 3/);
  const lighthouse = encounters.getByRole('listitem').filter({ hasText: 'Lighthouse' });
  await expect(lighthouse).toContainText('Preparing');
  await expect(lighthouse.getByRole('link', { name: /^Resume/ })).toHaveCount(0);
  await page.screenshot({ path: '/tmp/campaign-home-encounters.png' });
  await pierRow.getByRole('link', { name: 'Resume Pier' }).click();
  await expect(page.getByTestId('active-name')).toHaveText('Ash');
});
