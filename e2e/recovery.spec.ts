// Issue 28, point 9 — the recovery screen at 1280×800: a card leads with what changed (LP 5/8 after a fight) and
// what is open, what is whole is one quiet line (not a wall of "d8/d8" chips); a party-wide value (Enigma's Escalation) has one button, beside
// the party's values, not one on every party member's card. The campaign is made through the API; the GM's steps in
// Chromium.
import { expect, test } from '@playwright/test';
import { apiOf, useServer } from './fixtures.ts';

const gmw = useServer('recovery');
type Row = { id: string; name: string };

test('Reset Escalation is one button for the party, and resets it', async ({ page, request }) => {
  const server = await gmw.start('recovery.sqlite');
  const api = apiOf(request, server);
  const campaign = await api<Row>('campaigns:create', { name: 'Nexus Nights', rulesetId: 'enigma' });
  for (const name of ['Ash', 'Berrik', 'Cato']) await api('characters:create', { campaignId: campaign.id, role: 'pc', name, sheet: {} });
  await page.goto(`${server.launchUrl}#/campaign/${campaign.id}/recovery`);
  await expect(page.getByRole('article', { name: 'Cato' })).toBeVisible();

  await expect(page.getByRole('button', { name: 'Reset Escalation' })).toHaveCount(1);
  for (const name of ['Ash', 'Berrik', 'Cato']) await expect(page.getByRole('article', { name }).getByRole('button', { name: 'Reset Escalation' })).toHaveCount(0);
  const shared = page.getByRole('group', { name: "The party's shared values" });
  await shared.getByRole('button', { name: 'Reset Escalation' }).click();
  await page.screenshot({ path: '/tmp/recovery-party-wide.png', fullPage: true });
  // It acts for the party (named under its first member); a new campaign's Escalation has nothing to reset, and says so.
  await page.getByRole('form', { name: 'Reset Escalation for Ash' }).getByRole('button', { name: 'Reset Escalation' }).click();
  await expect(page.getByText('Escalation is already back to 1: nothing has raised it since the last reset.')).toBeVisible();
});

test('a card leads with what changed; what is whole is one quiet line', async ({ page, request }) => {
  const server = await gmw.start('recovery-cards.sqlite');
  const api = apiOf(request, server);
  const campaign = await api<Row>('campaigns:create', { name: 'Harbour Lights', rulesetId: 'enigma' });
  const ash = await api<Row>('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
  await api('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: {} });
  const gull = await api<Row>('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Gull', sheet: {} });
  const pier = await api<Row>('encounters:create', { campaignId: campaign.id, name: 'Pier' });
  await api('encounters:addFromCampaign', { id: pier.id, pcIds: [ash.id], npcs: [{ templateId: gull.id, count: 1 }] });
  const started = await api<{ view: { order: Row[] } }>('encounters:append', { id: pier.id, event: { type: 'START' } });
  await api('encounters:append', { id: pier.id, event: { type: 'APPLY_DAMAGE', targetId: started.view.order.find((c) => c.name === 'Ash')!.id, amount: 3, source: 'a gull' } });
  await api('encounters:append', { id: pier.id, event: { type: 'END_COMBAT', outcome: 'Victory' } });

  await page.goto(`${server.launchUrl}#/campaign/${campaign.id}/recovery`);
  const ashCard = page.getByRole('article', { name: 'Ash' });
  const berrikCard = page.getByRole('article', { name: 'Berrik' });
  await expect(ashCard.getByText('LP 5/8', { exact: true })).toBeVisible();
  await expect(ashCard.getByRole('paragraph').filter({ hasText: 'Nothing to recover' })).toContainText('Whole: Endure d8/d8 · Navigate d8/d8');
  await expect(berrikCard.getByRole('paragraph').filter({ hasText: 'Nothing to recover' })).toContainText('All whole: LP 8/8 · Endure d8/d8');
  await expect(berrikCard.getByText('Endure d8/d8', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: '/tmp/recovery-cards.png' });
});

test('an injury between sessions: recorded from the card, shown there and in the history, taken back by undo', async ({ page, request }) => {
  const server = await gmw.start('recovery-injury.sqlite');
  const api = apiOf(request, server);
  const campaign = await api<Row>('campaigns:create', { name: 'Saltmarsh', rulesetId: 'any-system' });
  const ana = await api<Row>('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ana', sheet: { hpMax: 20, hp: 20, tempHp: 0, ac: 15, initiativeModifier: 3, notes: '' } });
  await page.goto(`${server.launchUrl}#/campaign/${campaign.id}/recovery`);
  const card = page.getByRole('article', { name: 'Ana' });
  await card.getByRole('button', { name: 'Injury', exact: true }).click();
  const form = page.getByRole('form', { name: 'Injury for Ana' });
  await form.getByRole('textbox', { name: 'Injury', exact: true }).fill('Broken arm');
  await form.getByRole('textbox', { name: 'Notes', exact: true }).fill('Fell off the cliff path in the fog.');
  await form.getByRole('button', { name: 'Injury', exact: true }).click();
  await expect(card.getByRole('list', { name: "Ana's injuries and wounds" })).toContainText('Broken arm');

  await page.goto(`${server.launchUrl}#/campaign/${campaign.id}/character/${ana.id}/history`);
  await expect(page.getByRole('listitem', { name: 'Broken arm' }).locator('.gained')).toContainText('in the ledger (Ana is injured on day 1: Broken arm)');

  await page.goto(`${server.launchUrl}#/campaign/${campaign.id}/recovery`);
  await page.getByRole('button', { name: 'Undo: Ana is injured on day 1: Broken arm.' }).click();
  await expect(page.getByRole('article', { name: 'Ana' }).getByText('No injuries or wounds.')).toBeVisible();
});
