// Undo across the end of a fight, as a GM meets it: the fight ends, the party rests in Recovery, and back in the
// runner Undo is not offered (its tooltip, and Ctrl+Z, say why). Once the Rest is undone the end can be undone, and
// Ctrl+Shift+Z ends the fight again only through the same review as the first end.
import { expect, test } from '@playwright/test';
import { encounterLog, prepareFight, useServer } from './fixtures.ts';

const gmw = useServer('undo-ending');
const MOVED_ON = /^This fight's end was written onto the campaign, and the campaign has moved on since \(“Mira rests/;

test('a fight ended, then a Rest: no undo of the end until the Rest is undone; redo shows the review', async ({ page }) => {
  const server = await gmw.start('undo-ending.sqlite');
  await prepareFight(page, server, { campaign: 'Vault', ruleset: 'enigma', pc: 'Mira', npc: 'Thug', encounter: 'Alley' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await page.getByRole('button', { name: 'Damage or heal Mira' }).click();
  await page.getByRole('spinbutton', { name: 'Amount' }).fill('3');
  await page.getByRole('button', { name: 'Apply damage' }).click();
  // The GM ends the fight once the damage is shown: a press on a screen that has not caught up is refused as stale.
  await expect(encounterLog(page).getByText(/^Mira takes 3 damage/)).toBeVisible();
  await page.getByRole('button', { name: 'End combat', exact: true }).click();
  await page.getByRole('dialog', { name: 'End combat' }).getByRole('button', { name: 'End combat' }).click();
  await page.getByRole('dialog', { name: /Before the fight ends/ }).getByRole('button', { name: 'Write and end' }).click();
  await expect(page.getByText('Combat over')).toBeVisible();
  const runner = page.url();

  // Recovery: the party rests.
  await page.getByRole('link', { name: 'Vault' }).click();
  await page.getByRole('link', { name: 'Recovery' }).click();
  await page.getByRole('group', { name: 'Whole party' }).getByRole('button', { name: 'Rest' }).click();
  await page.getByRole('form', { name: 'Rest for the whole party' }).getByRole('button', { name: 'Rest' }).click();
  await expect(page.getByRole('region', { name: 'Ledger' })).toContainText('Mira rests');
  const recovery = page.url();

  // Back at the fight: Undo is not offered, and says why; Ctrl+Z says it too and changes nothing.
  await page.goto(runner);
  const undo = page.getByRole('button', { name: 'Undo', exact: true });
  await expect(undo).toBeDisabled();
  await expect(undo).toHaveAttribute('title', MOVED_ON);
  await page.keyboard.press('Control+z');
  await expect(page.getByText(MOVED_ON)).toBeVisible();
  await expect(page.getByText('Combat over')).toBeVisible();

  // Undo the Rest first; then the end can be undone.
  await page.goto(recovery);
  await page.getByRole('button', { name: /^Undo: Mira rests/ }).click();
  await expect(page.getByRole('button', { name: /^Redo: Mira rests/ })).toBeEnabled();
  await page.goto(runner);
  await expect(page.getByRole('button', { name: /^Undo: / })).toBeEnabled();
  await page.keyboard.press('Control+z');
  await expect(page.getByRole('button', { name: 'End combat', exact: true })).toBeVisible();

  // Redo ends it again through the same review; going back writes nothing, confirming writes it.
  await page.keyboard.press('Control+Shift+z');
  const review = page.getByRole('dialog', { name: /Before the fight ends/ });
  await expect(review).toBeVisible();
  await review.getByRole('button', { name: 'Back to the fight' }).click();
  await expect(review).toBeHidden();
  await expect(page.getByRole('button', { name: 'End combat', exact: true })).toBeVisible();
  await page.getByRole('button', { name: /^Redo: / }).click();
  await review.getByRole('button', { name: 'Write and end' }).click();
  await expect(page.getByText('Combat over')).toBeVisible();
});
