// Conditions with durations in the runner (issue 28 point 3), by keyboard: X opens the form on its first field, two
// goblins ticked with Space, the name typed, Enter sends; the chips count down on the rows and on the now-acting
// card, the condition expires on its own with a log line, and one undo brings it back.
import { expect, test } from '@playwright/test';
import { activeName, encounterLog, prepareFight, useServer } from './fixtures.ts';

const gmw = useServer('conditions');

test('a condition on two goblins by keyboard counts down, expires and comes back with undo', async ({ page }) => {
  await prepareFight(page, await gmw.start('conditions.sqlite'), { campaign: 'Marked', ruleset: 'enigma', pc: 'Ash', npc: 'Goblin', npcCount: 2, encounter: 'Ford' });
  await page.getByRole('radio', { name: 'Fixed order' }).check();
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await expect(activeName(page)).toHaveText('Ash');

  const row = (name: string) => page.getByRole('listitem', { name: new RegExp(`^(\\d+\\. )?${name},`) });
  const chip = (name: string) => row(name).getByTestId('condition-chip');

  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('x');
  const form = page.getByRole('form', { name: 'Add condition form' });
  await expect(form.getByRole('checkbox', { name: 'Ash' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Stunned');
  await page.keyboard.press('Enter');
  await expect(form).toBeHidden();

  await expect(chip('Goblin 1')).toHaveText(/Stunned\s*1 round left/);
  await expect(chip('Goblin 2')).toHaveText(/Stunned\s*1 round left/);
  await expect(chip('Ash')).toHaveCount(0);
  await expect(encounterLog(page).getByText("The GM puts Stunned on Goblin 1 and Goblin 2, for 1 round (counted from Ash's turn).")).toBeVisible();

  // Goblin 1's turn: the now-acting card carries the chip and the log reminds the GM.
  await page.keyboard.press('n');
  await expect(activeName(page)).toHaveText('Goblin 1');
  await expect(page.locator('.now').getByTestId('condition-chip')).toHaveText(/Stunned/);
  await expect(encounterLog(page).getByText("Reminder — Goblin 1's turn starts: Stunned (1 round left).")).toBeVisible();
  await page.screenshot({ path: '/tmp/cond/conditions-runner.png' });

  await page.keyboard.press('n');
  await expect(activeName(page)).toHaveText('Goblin 2');
  await page.keyboard.press('n');
  await expect(activeName(page)).toHaveText('Ash');
  await expect(page.getByTestId('counter-round')).toHaveAccessibleName('Round 2');
  await expect(encounterLog(page).getByText('Stunned on Goblin 1 ends after 1 round.')).toBeVisible();
  await expect(page.getByTestId('condition-chip')).toHaveCount(0);

  // One undo brings it back, counted as it was.
  await page.keyboard.press('Control+z');
  await expect(activeName(page)).toHaveText('Goblin 2');
  await expect(chip('Goblin 1')).toHaveText(/Stunned\s*1 round left/);

  // A chip is taken off by its own button, reached by keyboard.
  await row('Goblin 1').getByRole('button', { name: 'Remove Stunned from Goblin 1' }).focus();
  await page.keyboard.press('Enter');
  await expect(chip('Goblin 1')).toHaveCount(0);
  await expect(encounterLog(page).getByText('The GM removes Stunned from Goblin 1.')).toBeVisible();
  await expect(chip('Goblin 2')).toHaveCount(1);
});

test('a condition without a name is said next to its field and nothing is sent', async ({ page }) => {
  await prepareFight(page, await gmw.start('conditions-refused.sqlite'), { campaign: 'Unnamed', ruleset: 'enigma', pc: 'Ash', npc: 'Goblin', encounter: 'Ford' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await expect(activeName(page)).toHaveText('Ash');
  await page.getByRole('button', { name: /^Add condition/ }).click();
  const form = page.getByRole('form', { name: 'Add condition form' });
  await form.getByRole('checkbox', { name: 'Goblin' }).check();
  await form.getByRole('button', { name: 'Add condition' }).click();
  await expect(form.getByRole('alert')).toHaveText('Name the condition (Stunned, Blessed, …).');
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await expect(page.getByTestId('condition-chip')).toHaveCount(0);
});
