// Issue 28, point 9 — the recovery screen at 1280×800: a party-wide value (Enigma's Escalation) has one button, beside
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
