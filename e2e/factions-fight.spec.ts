// A short Factions (Murdham) fight through the generic runner: the initiative holder chooses the first faction,
// factions put forward a character or pass, an attack hits automatically and its damage is rolled by the app.
import { expect, test } from '@playwright/test';
import { activeName, answerPrompt, prepareFight, useServer } from './fixtures.ts';

const gmw = useServer('factions');


test('a Factions fight: first faction, a character put forward, an automatic hit, passing', async ({ page }) => {
  await prepareFight(page, await gmw.start('factions.sqlite'), { campaign: 'Murdham Nights', ruleset: 'factions', pc: 'Sybilla', npc: 'Bandit', npcCount: 2, encounter: 'Crossroads' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  // The party started it and holds the initiative; it chooses to go first and puts Sybilla forward.
  await answerPrompt(page, 'Send Party');
  await answerPrompt(page, 'Send Party');
  await page.getByRole('button', { name: 'Send Sybilla' }).click();
  await expect(activeName(page)).toHaveText('Sybilla');
  // The runner shows what Sybilla may still do this turn (§3.3).
  await expect(page.getByTestId('counter-turnLeft')).toContainText('bonus action · main action (or a 2nd bonus) · zone move');

  // An attack on Bandit 1 hits automatically; the target may react, then the app rolls the damage.
  await page.keyboard.press('a');
  await page.getByRole('checkbox', { name: 'Bandit 1', exact: true }).check();
  await page.getByRole('button', { name: 'Attack', exact: true }).last().click();
  // Bandit 1 may react with its turn; it does not, and the GM rolls the damage from the prompt.
  await expect(page.getByRole('region', { name: 'Sybilla attacks Bandit 1. React (it takes this round\'s turn), or not?' })).toBeVisible();
  await page.locator('.prompt .choices button').first().click();
  await page.locator('.prompt .choices button').first().click();
  await expect(page.getByRole('listitem', { name: /Bandit 1/ }).locator('.hp')).not.toHaveText(/^Health 10\//);
  await page.screenshot({ path: 'e2e/screenshots/factions-fight.png' });
});
