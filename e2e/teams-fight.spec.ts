// A short Teams fight through the generic runner: the teams alternate sending a member, an attack rolled by the
// app opens the defence window, and the target's endurance falls.
import { expect, test } from '@playwright/test';
import { activeName, chooseCombatant, encounterLog, prepareFight, useServer } from './fixtures.ts';

const gmw = useServer('teams');


test('a Teams fight: team picks, an attack with a defence window, endurance damage', async ({ page }) => {
  await prepareFight(page, await gmw.start('teams.sqlite'), { campaign: 'Iron Pact', ruleset: 'teams', pc: 'Kestrel', npc: 'Raider', npcCount: 2, encounter: 'Toll bridge' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();

  // The first team sends its member from the prompt.
  await page.getByRole('button', { name: /^Send Kestrel/ }).click();
  await expect(activeName(page)).toHaveText('Kestrel');
  await expect(page.getByRole('listitem', { name: /Raider 1, Enemies/ })).toBeVisible();

  // Kestrel attacks Raider 1; the app rolls the test and the luck die.
  await page.keyboard.press('a');
  await chooseCombatant(page.getByRole('combobox', { name: 'Target' }), 'Raider 1');
  await page.getByRole('button', { name: 'Attack', exact: true }).last().click();
  await expect(encounterLog(page).getByText(/^Kestrel attacks Raider 1/)).toBeVisible();
  // On a hit the defence window opens for Raider 1; the GM answers it from the prompt.
  const takeIt = page.getByRole('button', { name: 'Send Take the hit' });
  const missed = encounterLog(page).getByText(/Against evasion \d+: miss/);
  await expect(takeIt.or(missed)).toBeVisible();
  if (await takeIt.count()) {
    await takeIt.click();
    await expect(encounterLog(page).getByText(/^Raider 1 takes the hit\. Damage \d+/)).toBeVisible();
    // A hit this hard may ask for a consciousness check: the first choice answers it.
    const check = page.getByRole('region', { name: /consciousness|fortify/i }).getByRole('button').first();
    if (await check.count()) await check.click();
  }
  await expect(page.getByTestId('counter-actions')).toHaveAccessibleName('2 actions left');
  await page.screenshot({ path: 'e2e/screenshots/teams-fight.png' });

  // The other team sends its member next.
  await page.keyboard.press('n');
  await page.getByRole('button', { name: /^Send Raider 2/ }).click();
  await expect(activeName(page)).toHaveText('Raider 2');
});
