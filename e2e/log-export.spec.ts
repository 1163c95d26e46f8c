// The full log and the exports through the UI: filters, search and the round summary; Markdown, HTML and JSON
// downloaded in web mode; a campaign exported and imported back as a new campaign.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { encounterLog, prepareFight, useServer } from './fixtures.ts';

const gmw = useServer('exports');

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

test('full log with filters and summary, encounter exports, campaign export and import', async ({ page }) => {
  const server = await gmw.start('exports.sqlite');
  await prepareFight(page, server, { campaign: 'Nexus | Nights', ruleset: 'enigma', pc: 'Mira', npc: 'Thug', npcCount: 2, encounter: 'Alley <b>fight</b>' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await page.getByRole('button', { name: 'Damage or heal Thug 1' }).click();
  await page.getByRole('spinbutton', { name: 'Amount' }).fill('8');
  await page.getByRole('button', { name: 'Apply damage' }).click();
  // The damage shown before Undo's label is read: N's own change of that label is what the next line waits for.
  await expect(encounterLog(page).getByText(/^Thug 1 takes 8 damage/)).toBeVisible();
  const undo = page.getByRole('button', { name: /^Undo/ });
  const beforeTurn = await undo.getAttribute('aria-label');
  await page.keyboard.press('n');
  await expect(undo).not.toHaveAttribute('aria-label', beforeTurn ?? '');
  await page.getByRole('button', { name: 'Damage or heal Mira' }).click();
  await page.getByRole('spinbutton', { name: 'Amount' }).fill('2');
  await page.getByRole('button', { name: 'Apply damage' }).click();

  const runnerUrl = page.url();
  await page.getByRole('link', { name: 'Full log, summary and export ›' }).click();
  const log = page.getByRole('list', { name: 'Full encounter log' });
  await expect(log).toContainText('Thug 1 takes 8 damage');
  await page.getByRole('radio', { name: 'Damage' }).check();
  await expect(log).toContainText('Mira takes 2 damage');
  await expect(log).not.toContainText('Round 1 begins');
  await page.getByRole('combobox', { name: 'Combatant' }).selectOption({ label: 'Mira' });
  await expect(log).not.toContainText('Thug 1 takes 8 damage');
  await page.getByRole('radio', { name: 'Everything' }).check();
  await page.getByRole('combobox', { name: 'Combatant' }).selectOption({ label: 'Every combatant' });
  await page.getByRole('searchbox', { name: 'Search the log' }).fill('defeated');
  await expect(log).toContainText('Thug 1 takes 8 damage');
  await expect(log).not.toContainText('Mira takes 2 damage');
  const round1 = page.getByRole('table', { name: 'Round 1' });
  await expect(round1.getByRole('row', { name: /Thug 1/ })).toContainText('8');
  await expect(round1.getByRole('row', { name: /Thug 1/ })).toContainText('went down');
  await page.screenshot({ path: 'e2e/screenshots/full-log.png' });

  // The log open beside the runner in a second window: an action there shows up here (only its lines travel),
  // and its undo takes them away again.
  await page.getByRole('searchbox', { name: 'Search the log' }).fill('');
  const runner = await page.context().newPage();
  await runner.goto(runnerUrl);
  await runner.getByRole('button', { name: 'Damage or heal Mira' }).click();
  await runner.getByRole('spinbutton', { name: 'Amount' }).fill('3');
  await runner.getByRole('button', { name: 'Apply damage' }).click();
  await expect(log).toContainText('Mira takes 3 damage');
  await runner.keyboard.press('Control+z');
  await expect(log).not.toContainText('Mira takes 3 damage');
  await expect(log).toContainText('Mira takes 2 damage');
  await runner.close();

  const md = await download(page, () => page.getByRole('button', { name: 'Markdown' }).click());
  expect(md.name).toMatch(/\.md$/);
  expect(md.text).toContain('Round 1');
  expect(md.text).not.toContain('<b>');
  const html = await download(page, () => page.getByRole('button', { name: 'HTML' }).click());
  expect(html.text).toContain('Content-Security-Policy');
  expect(html.text).not.toMatch(/<script/i);
  expect(html.text).toContain('&lt;b&gt;fight&lt;/b&gt;');
  const json = await download(page, () => page.getByRole('button', { name: 'JSON' }).click());
  expect(JSON.parse(json.text)).toMatchObject({ format: 'gm-workstation/encounter', version: 1 });

  // The whole campaign, then back in as a new one.
  await page.getByRole('link', { name: 'Nexus | Nights' }).click();
  const campaignFile = await download(page, () => page.getByRole('button', { name: 'Export campaign' }).click());
  await page.getByRole('link', { name: 'Campaigns', exact: true }).click();
  await page.getByLabel('Import a campaign file').setInputFiles({ name: campaignFile.name, mimeType: 'application/json', buffer: Buffer.from(campaignFile.text) });
  await expect(page.getByRole('link', { name: /Nexus \| Nights/ })).toHaveCount(2);
});
