// Thrum's board: build a map in prep, place an NPC, take a starting square in Round Zero, move by clicking, read
// distance and cover off the board, and place an area attack's squares by clicking and with the keyboard alone.
import { expect, test, type Page } from '@playwright/test';
import { contestTyped, encounterLog, prepareFight, rollThrumInitiative, useServer } from './fixtures.ts';

const gmw = useServer('board');

const square = (page: Page, x: number, y: number) => page.getByRole('group', { name: 'Board' }).getByRole('button', { name: new RegExp(`^\\(${x},${y}\\)`) });

test('a Thrum board: map, placement, Round Zero square, a move by click, distance, an area placed by click and by keyboard', async ({ page }) => {
  await prepareFight(page, await gmw.start('board.sqlite'), { campaign: 'Board test', ruleset: 'thrum', pc: 'Ash', npc: 'Husk', encounter: 'Ruins' });

  // Build the map: 8 × 6, a raised square and difficult terrain; place the Husk.
  await page.getByRole('spinbutton', { name: 'Board width' }).fill('8');
  await page.getByRole('spinbutton', { name: 'Board height' }).fill('6');
  await page.getByRole('button', { name: 'Create the board' }).click();
  await page.getByRole('radio', { name: 'Raise' }).check();
  await square(page, 3, 3).click();
  await expect(square(page, 3, 3)).toHaveAccessibleName('(3,3) elevation 1');
  await page.getByRole('radio', { name: 'Difficult terrain' }).check();
  // Its line shown before the next write (the raised square's line already matched /map/ before it).
  const mapLines = await encounterLog(page).getByText(/map/i).count();
  await square(page, 2, 2).click();
  await expect(encounterLog(page).getByText(/map/i)).toHaveCount(mapLines + 1);
  await page.getByRole('radio', { name: 'Place' }).check();
  await page.getByRole('combobox', { name: 'Whom to place' }).selectOption({ label: 'Husk' });
  await square(page, 6, 2).click();
  await expect(square(page, 6, 2)).toHaveAccessibleName('(6,2): Husk');

  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await rollThrumInitiative(page, ['Ash', 'Husk']);

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
  await expect(page.getByText(/^\(6,2\) · elevation 0 · 3 from Ash · Husk/)).toBeVisible();
  // Aura 1 around the Husk outlines the 8 squares around it.
  await page.getByRole('combobox', { name: 'Show an area shape' }).selectOption('aura');
  await square(page, 6, 2).hover();
  await expect(page.locator('.cell.lit')).toHaveCount(8);
  await page.screenshot({ path: 'e2e/screenshots/thrum-board.png' });

  // An area attack placed by clicking: the Attack form picks the area tool; each click fills the form's squares, and
  // the board says who is inside and why the rules would refuse it before the GM confirms.
  // source: "Area and Line effects must have at least one space within the range of the ability that places it."
  const attackForm = page.getByRole('form', { name: 'Attack form' });
  const placement = page.getByRole('status', { name: 'The area placed' });
  await page.getByRole('combobox', { name: 'Show an area shape' }).selectOption('none');
  await page.getByRole('button', { name: 'Attack', exact: true }).first().click();
  await expect(page.getByRole('radio', { name: 'Place the area' })).toBeChecked();
  await attackForm.getByRole('spinbutton', { name: 'Range' }).fill('2');
  // A double-click places the square once (the second click of a double-click is not a second toggle).
  await square(page, 6, 2).dblclick();
  await expect(attackForm.getByRole('textbox', { name: 'Area squares' })).toHaveValue('6,2');
  await expect(placement).toContainText('Inside: Husk');
  await expect(placement).toContainText('The area must include at least one square within Range 2.');
  await expect(attackForm.getByRole('status')).toHaveText('The area must include at least one square within Range 2.');
  await square(page, 5, 2).click();
  await expect(attackForm.getByRole('textbox', { name: 'Area squares' })).toHaveValue('6,2 5,2');
  await expect(square(page, 5, 2)).toHaveAttribute('aria-pressed', 'true');
  await expect(placement).not.toContainText('Range 2');
  await expect(attackForm.getByRole('status')).toHaveText('The area holds Husk.');
  await page.screenshot({ path: 'e2e/screenshots/thrum-board-area.png' });
  await page.getByRole('button', { name: 'Attack', exact: true }).last().click();
  await page.getByRole('button', { name: /^Send Resilience/ }).click();
  await contestTyped(page);
  await expect(page.getByRole('listitem', { name: /^\d+\. Husk,/ }).locator('.hp')).toHaveText(/^Fatigue 1\/5/);
  await expect(encounterLog(page).getByText(/^Ash uses Basic Attack \(physical, area\) on the area \(6,2\) \(5,2\) on Husk/)).toBeVisible();
  await expect(placement).toBeHidden();

  // The Husk's turn: an area placed with the keyboard alone. The board is one tab stop; arrows move, Enter or Space
  // toggles a square, Escape takes this placement's squares back (a second Escape closes the form).
  await page.keyboard.press('n');
  await expect(page.getByTestId('active-name')).toHaveText('Husk');
  await page.locator('body').focus();
  await page.keyboard.press('a');
  await expect(page.getByRole('radio', { name: 'Place the area' })).toBeChecked();
  await page.locator('.cell[tabindex="0"]').focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 6; i += 1) await page.keyboard.press('ArrowUp');
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowDown', 'Enter', 'ArrowRight', 'Space']) await page.keyboard.press(key);
  await expect(attackForm.getByRole('textbox', { name: 'Area squares' })).toHaveValue('2,1 3,1');
  await expect(placement).toContainText('Inside: Ash');
  await page.keyboard.press('Escape');
  await expect(attackForm.getByRole('textbox', { name: 'Area squares' })).toHaveValue('');
  await expect(attackForm).toBeVisible();
  // Typed squares still work, and the board shows them.
  await attackForm.getByRole('textbox', { name: 'Area squares' }).fill('3,1 4,1');
  await expect(placement).toContainText('2 squares');
  await expect(square(page, 4, 1)).toHaveAttribute('aria-pressed', 'true');
  await attackForm.getByRole('textbox', { name: 'Area squares' }).fill('');
  await page.locator('.cell[tabindex="0"]').focus();
  await page.keyboard.press('Enter');
  await expect(attackForm.getByRole('textbox', { name: 'Area squares' })).toHaveValue('3,1');
  await attackForm.getByRole('button', { name: 'Attack', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: /^Send Resilience/ })).toBeVisible();
  await page.keyboard.press('1');
  await contestTyped(page);
  await expect(page.getByRole('listitem', { name: /^\d+\. Ash,/ }).locator('.hp')).toHaveText(/^Fatigue 1\/5/);
  await expect(encounterLog(page).getByText(/^Husk uses Basic Attack \(physical, area\) on the area \(3,1\) on Ash/)).toBeVisible();
});
