// Thrum's board: build a map in prep, place an NPC, take a starting square in Round Zero, move by clicking, and read
// distance and cover off the board.
import { expect, test, type Page } from '@playwright/test';
import { encounterLog, prepareFight, useServer } from './fixtures.ts';

const gmw = useServer('board');

const square = (page: Page, x: number, y: number) => page.getByRole('group', { name: 'Board' }).getByRole('button', { name: new RegExp(`^\\(${x},${y}\\)`) });

test('a Thrum board: map, placement, Round Zero square, a move by click, distance', async ({ page }) => {
  await prepareFight(page, await gmw.start('board.sqlite'), { campaign: 'Board test', ruleset: 'thrum', pc: 'Ash', npc: 'Husk', encounter: 'Ruins' });

  // Build the map: 8 × 6, a raised square and difficult terrain; place the Husk.
  await page.getByRole('spinbutton', { name: 'Board width' }).fill('8');
  await page.getByRole('spinbutton', { name: 'Board height' }).fill('6');
  await page.getByRole('button', { name: 'Create the board' }).click();
  await page.getByRole('radio', { name: 'Raise' }).check();
  await square(page, 3, 3).click();
  await expect(square(page, 3, 3)).toHaveAccessibleName('(3,3) elevation 1');
  await page.getByRole('radio', { name: 'Difficult terrain' }).check();
  await square(page, 2, 2).click();
  await expect(encounterLog(page).getByText(/map/i).last()).toBeVisible();
  await page.getByRole('radio', { name: 'Place' }).check();
  await page.getByRole('combobox', { name: 'Whom to place' }).selectOption({ label: 'Husk 1' });
  await square(page, 6, 2).click();
  await expect(square(page, 6, 2)).toHaveAccessibleName('(6,2): Husk 1');

  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  for (const name of ['Ash', 'Husk 1']) await page.getByRole('button', { name: new RegExp(`^Send ${name} \\(2d6`) }).click();
  await expect(page.getByTestId('counter-stage')).toContainText('Round Zero');

  // Round Zero: Ash takes a starting square by clicking the board when it is Ash's turn.
  for (let i = 0; i < 2; i += 1) {
    if ((await page.getByTestId('active-name').textContent()) === 'Ash') {
      await page.getByRole('radio', { name: 'Move the active one' }).check();
      await square(page, 1, 1).click();
      await expect(square(page, 1, 1)).toHaveAccessibleName('(1,1): Ash');
    }
    await page.keyboard.press('n');
    // A press acts on the turn the screen shows: the next one waits for this one's answer (Next turn is enabled again).
    await expect(page.getByRole('button', { name: 'Next turn' })).toBeEnabled();
  }
  await expect(page.getByTestId('counter-round')).toHaveAccessibleName('Round 1');
  if ((await page.getByTestId('active-name').textContent()) !== 'Ash') await page.keyboard.press('n');
  await expect(page.getByTestId('active-name')).toHaveText('Ash');

  // Round 1: a move by click, and the distance and cover read off the board.
  await page.getByRole('radio', { name: 'Move the active one' }).check();
  await square(page, 3, 1).click();
  await expect(square(page, 3, 1)).toHaveAccessibleName('(3,1): Ash');
  await square(page, 6, 2).hover();
  await expect(page.getByText(/^\(6,2\) · elevation 0 · 3 from Ash · Husk 1/)).toBeVisible();
  // Aura 1 around the Husk outlines the 8 squares around it.
  await page.getByRole('combobox', { name: 'Show an area shape' }).selectOption('aura');
  await square(page, 6, 2).hover();
  await expect(page.locator('.cell.lit')).toHaveCount(8);
  await page.screenshot({ path: 'e2e/screenshots/thrum-board.png' });
});
