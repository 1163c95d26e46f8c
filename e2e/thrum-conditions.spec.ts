// Thrum's Win and Defeat Conditions in the browser: the GM sets them in prep, marks one met in the runner while an
// attack waits for its defence, and the fight ends with that condition as its outcome once the attack has resolved.
// source: "A specified Win Condition or Defeat Condition is met" (one of the ways combat ends).
import { expect, test } from '@playwright/test';
import { activeName, contestTyped, encounterLog, prepareFight, rollThrumInitiative, useServer } from './fixtures.ts';

const gmw = useServer('conditions');

test('Thrum: Win and Defeat Conditions set in prep; one marked met mid-attack ends the fight after the attack', async ({ page }) => {
  await prepareFight(page, await gmw.start('conditions.sqlite'), { campaign: 'Hollow Roads', ruleset: 'thrum', pc: 'Ash', npc: 'Husk', encounter: 'Ruins' });

  // Prep: a Win Condition and a Defeat Condition, numbered in the order set.
  const conditionForm = page.getByRole('form', { name: 'Win or Defeat Condition form' });
  await page.getByRole('button', { name: 'Win or Defeat Condition' }).click();
  await conditionForm.getByRole('textbox', { name: 'Condition' }).fill('The altar is destroyed');
  await conditionForm.getByRole('button', { name: 'Win or Defeat Condition' }).click();
  await expect(encounterLog(page).getByText('Win Condition 1: The altar is destroyed.')).toBeVisible();
  await page.getByRole('button', { name: 'Win or Defeat Condition' }).click();
  await conditionForm.getByRole('combobox', { name: 'Kind' }).selectOption('defeat');
  await conditionForm.getByRole('textbox', { name: 'Condition' }).fill('Ash is carried off');
  await conditionForm.getByRole('button', { name: 'Win or Defeat Condition' }).click();
  await expect(encounterLog(page).getByText('Defeat Condition 2: Ash is carried off.')).toBeVisible();

  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await rollThrumInitiative(page, ['Ash', 'Husk']);
  for (let i = 0; i < 2; i += 1) {
    await page.keyboard.press('n');
    await expect(page.getByRole('button', { name: 'Next turn' })).toBeEnabled();
  }
  await expect(page.getByTestId('counter-round')).toHaveAccessibleName('Round 1');
  // The runner lists the conditions with the numbers the GM gives "Condition met".
  await expect(page.locator('.aside', { hasText: 'Win and Defeat Conditions' })).toContainText('1. Win: The altar is destroyed; 2. Defeat: Ash is carried off');

  // Whoever acts attacks the other; while the defence is asked for, the GM marks the Defeat Condition met.
  const attacker = (await activeName(page).textContent())!;
  const defender = attacker === 'Ash' ? 'Husk' : 'Ash';
  await page.keyboard.press('a');
  await page.getByRole('form', { name: 'Attack form' }).getByRole('group', { name: 'Targets', exact: true }).getByRole('checkbox', { name: defender }).check();
  await page.getByRole('button', { name: 'Attack', exact: true }).last().click();
  await expect(page.getByRole('button', { name: /^Send Resilience/ })).toBeVisible();
  await page.getByRole('button', { name: 'Condition met' }).click();
  const metForm = page.getByRole('form', { name: 'Condition met form' });
  await metForm.getByRole('spinbutton', { name: 'Condition number' }).fill('2');
  await metForm.getByRole('button', { name: 'Condition met' }).click();
  await expect(encounterLog(page).getByText('The GM marks the Defeat Condition met: Ash is carried off. Combat ends once the triggers and the action under way resolve.')).toBeVisible();
  // The attack under way still resolves: the fight has not ended yet.
  await expect(page.getByText('Combat over')).toHaveCount(0);
  await page.getByRole('button', { name: /^Send Resilience/ }).click();
  await contestTyped(page);

  // Then it ends, with what it writes onto the campaign reviewed first, and the condition as its outcome.
  await page.getByRole('dialog', { name: /Before the fight ends/ }).getByRole('button', { name: 'Write and end' }).click();
  await expect(page.getByText('Combat over')).toBeVisible();
  await expect(page.locator('.now')).toContainText(/Defeat Condition.*Ash is carried off/);
  // The attack resolved before the end, then the fight ended on the condition.
  await expect(encounterLog(page).getByText(new RegExp(`against ${defender}'s Resilience.*failure: takes the effect`))).toBeVisible();
  await expect(encounterLog(page).getByText(/^Combat ends: Defeat Condition met: Ash is carried off\./)).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/thrum-conditions.png' });
});
