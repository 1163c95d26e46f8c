// Several targets at once (issue 28 point 4): rows of the order of battle ticked by keyboard, the selection bar's
// Damage sends the ruleset's own damage event for each as one BATCH — each target's line in the log, each pool down,
// and one Ctrl+Z takes all of it back.
import { expect, test, type Page } from '@playwright/test';
import { activeName, encounterLog, prepareFight, useServer } from './fixtures.ts';

const gmw = useServer('several-targets');

const row = (page: Page, name: string) => page.getByRole('listitem', { name: new RegExp(`^(\\d+\\. )?${name},`) });
const pool = (page: Page, name: string) => row(page, name).locator('.pool .figures');

test('Enigma: an explosion on three by keyboard, each logged, one undo', async ({ page }) => {
  await prepareFight(page, await gmw.start('enigma.sqlite'), { campaign: 'Blast', ruleset: 'enigma', pc: 'Ash', npc: 'Goblin', npcCount: 3, encounter: 'Quarry' });
  await page.getByRole('radio', { name: 'Fixed order' }).check();
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await expect(activeName(page)).toHaveText('Ash');
  const goblins = ['Goblin 1', 'Goblin 2', 'Goblin 3'];
  const before = await Promise.all(goblins.map((g) => pool(page, g).textContent()));
  const lp = (text: string | null) => Number(/LP\s*(\d+)/.exec(text ?? '')![1]);

  // A checkbox per row, reached by keyboard: focus, Space.
  for (const g of goblins) {
    await row(page, g).getByRole('checkbox', { name: `Select ${g}` }).focus();
    await page.keyboard.press('Space');
  }
  const bar = page.getByRole('group', { name: '3 selected' });
  await expect(bar).toBeVisible();
  await expect(bar).toContainText('3 selected');
  await bar.getByRole('button', { name: 'Damage' }).click();
  const form = page.getByRole('form', { name: 'Damage for the selected' });
  await expect(form.getByRole('spinbutton', { name: 'Amount' })).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('2');
  await page.keyboard.press('Tab');
  await page.keyboard.type('an explosion');
  await page.screenshot({ path: '/tmp/multi/enigma-three-selected.png' });
  await page.keyboard.press('Enter');
  await expect(form).toBeHidden();

  for (const [i, g] of goblins.entries()) {
    await expect(encounterLog(page).getByText(new RegExp(`^${g} takes 2 damage`))).toBeVisible();
    await expect(pool(page, g)).toContainText(`LP ${lp(before[i]!) - 2}/`);
  }
  await expect(pool(page, 'Ash')).toHaveText(/LP (\d+)\/\1/);
  await page.screenshot({ path: '/tmp/multi/enigma-after.png' });

  // One undo: all three back.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+z');
  for (const [i, g] of goblins.entries()) await expect(pool(page, g)).toHaveText(before[i]!);
  await expect(encounterLog(page).getByText(/^Goblin \d takes 2 damage/)).toHaveCount(0);

  // Condition for the selection: the condition form opens with the three ticked.
  await bar.getByRole('button', { name: 'Condition' }).click();
  const condition = page.getByRole('form', { name: 'Add condition form' });
  for (const g of goblins) await expect(condition.getByRole('checkbox', { name: g, exact: true })).toBeChecked();
  await expect(condition.getByRole('checkbox', { name: 'Ash', exact: true })).not.toBeChecked();
  await page.keyboard.press('Escape');

  // Clear empties the selection and the bar goes.
  await bar.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByTestId('selection-bar')).toHaveCount(0);
  await expect(row(page, 'Goblin 1').getByRole('checkbox')).not.toBeChecked();
});

test('Teams: a rockslide on three through the ruleset\'s own damage form, one undo', async ({ page }) => {
  await prepareFight(page, await gmw.start('teams.sqlite'), { campaign: 'Iron Pact', ruleset: 'teams', pc: 'Kestrel', npc: 'Raider', npcCount: 2, encounter: 'Toll bridge' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await page.getByRole('button', { name: /^Send Kestrel/ }).click();
  await expect(activeName(page)).toHaveText('Kestrel');
  const everyone = ['Kestrel', 'Raider 1', 'Raider 2'];
  const stats = (name: string) => row(page, name).locator('.stats');
  const before = await Promise.all(everyone.map((name) => stats(name).textContent()));

  for (const name of everyone) await row(page, name).getByRole('checkbox', { name: `Select ${name}` }).check();
  const bar = page.getByRole('group', { name: '3 selected' });
  await bar.getByRole('button', { name: 'Damage', exact: true }).click();
  const form = page.getByRole('form', { name: 'Damage for the selected' });
  // The ruleset's own fields, less the target: amount, type, nonlethal, source.
  await expect(form.getByRole('combobox', { name: 'Type' })).toBeVisible();
  await form.getByRole('spinbutton', { name: 'Damage' }).fill('2');
  await form.getByRole('textbox', { name: 'Source' }).fill('a rockslide');
  await page.screenshot({ path: '/tmp/multi/teams-three-selected.png' });
  await form.getByRole('button', { name: 'Damage all 3' }).click();
  await expect(form).toBeHidden();
  for (const [i, name] of everyone.entries()) {
    await expect(encounterLog(page).getByText(new RegExp(`^${name} takes 2 damage from a rockslide`))).toBeVisible();
    await expect(stats(name)).not.toHaveText(before[i]!);
  }

  await page.getByRole('button', { name: /^Undo/ }).click();
  for (const [i, name] of everyone.entries()) await expect(stats(name)).toHaveText(before[i]!);
  await expect(encounterLog(page).getByText(/takes 2 damage from a rockslide/)).toHaveCount(0);
});
