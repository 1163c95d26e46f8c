// A short Thrum fight through the generic runner: initiative rolled by the app from the prompt, Round Zero stances,
// an attack on a ticked target whose defence the GM answers from a prompt button and whose contested roll the GM
// types from physical dice, and the resulting
// Fatigue load against the tolerance on the row.
import { expect, test } from '@playwright/test';
import { activeName, contestTyped, prepareFight, rollThrumInitiative, useServer } from './fixtures.ts';

const gmw = useServer('thrum');


test('a Thrum fight: initiative, Round Zero, an attack with a defence choice and its load', async ({ page }) => {
  await prepareFight(page, await gmw.start('thrum.sqlite'), { campaign: 'Hollow Roads', ruleset: 'thrum', pc: 'Ash', npc: 'Husk', encounter: 'Ruins' });
  await expect(page.getByRole('radiogroup', { name: 'Who takes the first slot' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Start combat ▸' }).click();

  // Initiative: each prompt button rolls 2d6 + modifier for one combatant (the app rolls the dice).
  await rollThrumInitiative(page, ['Ash', 'Husk']);
  await expect(page.getByRole('list', { name: 'Encounter log' }).getByText(/^Initiative order:/)).toBeVisible();
  await expect(page.getByTestId('counter-stage')).toContainText('Round Zero');

  // Round Zero: a first stance each, no actions.
  const firstInRoundZero = (await activeName(page).textContent())!;
  for (const name of [firstInRoundZero, firstInRoundZero === 'Ash' ? 'Husk' : 'Ash']) {
    await expect(activeName(page)).toHaveText(name);
    await page.keyboard.press('s');
    await page.getByRole('textbox', { name: 'Stance' }).fill('Guarded');
    await page.getByRole('button', { name: 'Stance', exact: true }).last().click();
    await expect(page.getByRole('list', { name: 'Encounter log' }).getByText(new RegExp(`^${name}.*Guarded`))).toBeVisible();
    await page.keyboard.press('n');
  }
  await expect(page.getByTestId('counter-round')).toHaveAccessibleName('Round 1');

  // Whoever acts first attacks the other; the defender chooses Resilience, and the attack's dice beat the defence's.
  const attacker = (await activeName(page).textContent())!;
  const defender = attacker === 'Ash' ? 'Husk' : 'Ash';
  await page.keyboard.press('a');
  // Targets start unticked: tick the defender (the first checkbox list is Targets, the second cover without a map).
  await page.getByRole('form', { name: 'Attack form' }).getByRole('group', { name: 'Targets', exact: true }).getByRole('checkbox', { name: defender }).check();
  await page.getByRole('spinbutton', { name: 'Fatigue on a hit' }).fill('2');
  await page.getByRole('button', { name: 'Attack', exact: true }).last().click();
  await page.getByRole('button', { name: /^Send Resilience/ }).click();
  // The contested roll (R-H11): the GM rolled physical dice and types both sides' faces in the Contested roll form.
  await contestTyped(page);
  await expect(page.getByRole('list', { name: 'Encounter log' }).getByText(/\[6, 6\] \(typed in\).*\[1, 1\] \(typed in\).*failure: takes the effect/)).toBeVisible();
  await expect(page.getByRole('listitem', { name: new RegExp(`^\\d+\\. ${defender},`) }).locator('.hp')).toHaveText(/^Fatigue 2\/5/);
  // The row shows Stress against its tolerance, Wounds and the stance; the aside the order with initiative totals.
  const row = page.getByRole('listitem', { name: new RegExp(`^\\d+\\. ${defender},`) });
  await expect(row.locator('.stats')).toContainText(/Stress\s*0\/5/);
  await expect(row.locator('.stats')).toContainText(/Wounds\s*0\/3/);
  await expect(row.locator('.tags')).toContainText('Stance: Guarded');
  await expect(page.locator('.aside', { hasText: 'Initiative order' })).toContainText(defender);
  await page.screenshot({ path: 'e2e/screenshots/thrum-fight.png' });
});
