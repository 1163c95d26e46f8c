// The runner with the keyboard alone (issue 28, point 1): a form opened by its shortcut takes focus on its first
// field, Enter sends it, Esc closes it and puts focus back; prompt choices and targets by number keys; `?` opens
// the ruleset's shortcut sheet. Set-up goes through the UI as the other specs do; once the runner shows, only
// `page.keyboard` acts.
import { expect, test, type Page } from '@playwright/test';
import { activeName, encounterLog, useServer } from './fixtures.ts';

const gmw = useServer('keyboard');
let server: Awaited<ReturnType<typeof gmw.start>>;
test.beforeAll(async () => {
  server = await gmw.start('keyboard.sqlite');
});

const logLine = (page: Page, text: string | RegExp) => encounterLog(page).getByText(text);

async function enigmaFight(page: Page, campaign: string) {
  await page.goto(server.launchUrl);
  await page.getByRole('textbox', { name: 'Campaign name' }).fill(campaign);
  await page.getByRole('button', { name: 'Create campaign' }).click();
  for (const [link, name] of [['+ Party member', 'Mira'], ['+ NPC template', 'Thug']] as const) {
    await page.getByRole('link', { name: link }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill(name);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await page.getByRole('textbox', { name: 'Encounter name' }).fill('Alley');
  await page.getByRole('button', { name: 'Prepare encounter' }).click();
  await page.getByRole('button', { name: 'Add Mira' }).click();
  await page.getByRole('spinbutton', { name: 'How many Thug' }).fill('2');
  await page.getByRole('button', { name: 'Add Thug' }).click();
  await page.getByRole('radio', { name: 'Fixed order' }).check();
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await expect(activeName(page)).toHaveText('Mira');
}

test('a form opened by its key takes focus, Enter sends it, Esc puts focus back (Enigma)', async ({ page }) => {
  await enigmaFight(page, 'Keys First');
  // M, 6, Enter: a move of six spaces.
  await page.keyboard.press('m');
  await expect(page.getByRole('spinbutton', { name: 'Spaces' })).toBeFocused();
  await page.screenshot({ path: '/tmp/keys/form-by-key.png' });
  await page.keyboard.press('6');
  await page.keyboard.press('Enter');
  await expect(logLine(page, /Mira moves 6/)).toBeVisible();
  await expect(page.getByTestId('counter-actions')).toHaveAccessibleName('1 action left');

  // A row's ± (reached by Tab), Esc: focus back on ±. Then A, Enter sends the attack, not the ± again.
  const plusMinus = page.getByRole('button', { name: 'Damage or heal Thug 1' });
  await plusMinus.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('form', { name: 'damage form' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Who' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('form', { name: 'damage form' })).toHaveCount(0);
  await expect(plusMinus).toBeFocused();
  await page.keyboard.press('a');
  await expect(page.getByRole('form', { name: 'attack form' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Attacker' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(logLine(page, /^Mira attacks Thug/)).toBeVisible();
  await expect(page.getByRole('form', { name: 'damage form' })).toHaveCount(0);
});

test('? opens the shortcut sheet of the ruleset: focus inside, Esc closes it, focus back (Enigma)', async ({ page }) => {
  await enigmaFight(page, 'Keys Sheet');
  await page.keyboard.press('Tab');
  const before = await page.evaluate(() => document.activeElement?.outerHTML);
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts — Enigma' });
  await expect(sheet).toBeVisible();
  // Listed from the tables the handlers read: the runner's keys and Enigma's action keys.
  for (const [keys, does] of [['N', /^Next turn/], ['M', 'Move'], ['A', 'Attack'], ['D', 'Damage / heal'], ['Enter', /^Send the form/], ['1 then 2', /^Past nine choices/]] as const) {
    await expect(sheet.getByRole('term').filter({ hasText: new RegExp(`^${keys}$`) })).toHaveCount(1);
    await expect(sheet.getByRole('definition').filter({ hasText: does }).first()).toBeVisible();
  }
  await expect(sheet.getByRole('button', { name: /Close/ })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(sheet.getByRole('button', { name: /Close/ })).toBeFocused();
  await page.screenshot({ path: '/tmp/keys/shortcut-sheet.png' });
  // A shortcut does nothing while the sheet shows.
  await page.keyboard.press('n');
  await expect(activeName(page)).toHaveText('Mira');
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  expect(await page.evaluate(() => document.activeElement?.outerHTML)).toBe(before);
});
