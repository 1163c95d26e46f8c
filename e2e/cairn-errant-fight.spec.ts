// A short Cairn-Errant round through the generic runner: a range band set, intents declared and locked, the round
// ordered with DEX saves, an attack answered with a defence choice, and the damage rolled by the app.
import { expect, test, type Page } from '@playwright/test';
import { chooseCombatant, encounterLog, prepareFight, useServer } from './fixtures.ts';

const gmw = useServer('cairn');


async function declare(page: Page, form: 'Player intent' | 'Enemy intent', who: string, target: string) {
  await page.getByRole('button', { name: form, exact: true }).first().click();
  await chooseCombatant(page.getByRole('combobox', { name: 'Who' }), who);
  await chooseCombatant(page.getByRole('combobox', { name: 'Target' }), target);
  await page.getByRole('button', { name: form, exact: true }).last().click();
  await expect(encounterLog(page).getByText(new RegExp(`${who}('s intent| declares)`)).first()).toBeVisible();
}

test('a Cairn-Errant round: declare, lock, order, defend, damage', async ({ page }) => {
  await prepareFight(page, await gmw.start('cairn.sqlite'), { campaign: 'Blackwood', ruleset: 'cairn-errant', pc: 'Wren', npc: 'Ghoul', encounter: 'Barrow' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();

  // The GM puts the ghoul Near the party: Wren's strike must close in first, so it is a full turn.
  await page.getByRole('button', { name: 'Range band', exact: true }).first().click();
  await chooseCombatant(page.getByRole('combobox', { name: 'Who' }), 'Ghoul');
  await page.getByRole('combobox', { name: 'Band' }).selectOption('near');
  await page.getByRole('button', { name: 'Range band', exact: true }).last().click();
  await expect(encounterLog(page).getByText('Ghoul is Near from the party.')).toBeVisible();

  await declare(page, 'Player intent', 'Wren', 'Ghoul');
  await expect(encounterLog(page).getByText('Wren declares: closes in and attacks Ghoul (from Near) — full turn.')).toBeVisible();
  await declare(page, 'Enemy intent', 'Ghoul', 'Wren');
  await page.getByRole('button', { name: 'Lock intents' }).first().click();
  await page.getByRole('button', { name: 'Lock intents' }).last().click();
  await expect(page.locator('.prompt .choices button').first()).toBeVisible();
  // Answer each question of the round with its first choice (DEX save rolled by the app, no defence, damage).
  // The app's dice may end the fight on the way (a side is out): then the carry-over check is confirmed.
  const carry = page.getByRole('dialog', { name: /Before the fight ends/ });
  for (let i = 0; i < 12; i += 1) {
    if (await carry.isVisible().catch(() => false)) {
      await carry.getByRole('button', { name: 'Write and end' }).click();
      break;
    }
    const choice = page.locator('.prompt .choices button').first();
    if (!(await choice.isVisible().catch(() => false))) break;
    await choice.click();
    await page.waitForTimeout(150);
  }
  await page.screenshot({ path: 'e2e/screenshots/cairn-errant-fight.png' });
  await expect(encounterLog(page).getByText(/^Damage on (Ghoul|Wren): .* d6 \[\d\]/).first()).toBeVisible();
});
