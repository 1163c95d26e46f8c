// A short Teams fight through the generic runner: the teams alternate sending a member, an attack rolled by the
// app opens the defence window, and the target's endurance falls.
import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from './server.ts';

let dir: string;
let server: RunningServer | undefined;
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gmw-e2e-teams-'));
});
test.afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const active = (page: Page) => page.getByTestId('active-name');
const log = (page: Page) => page.getByRole('list', { name: 'Encounter log' });

test('a Teams fight: team picks, an attack with a defence window, endurance damage', async ({ page }) => {
  server = await startServer(join(dir, 'teams.sqlite'));
  await page.goto(server.launchUrl);
  await page.getByRole('textbox', { name: 'Campaign name' }).fill('Iron Pact');
  await page.getByRole('combobox', { name: 'Ruleset' }).selectOption('teams');
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await page.getByRole('link', { name: '+ Party member' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Kestrel');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('link', { name: '+ NPC template' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Raider');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('textbox', { name: 'Encounter name' }).fill('Toll bridge');
  await page.getByRole('button', { name: 'Prepare encounter' }).click();
  await page.getByRole('button', { name: 'Add Kestrel' }).click();
  await page.getByRole('spinbutton', { name: 'How many Raider' }).fill('2');
  await page.getByRole('button', { name: 'Add Raider' }).click();
  await page.getByRole('button', { name: 'Start combat ▸' }).click();

  // The first team sends its member from the prompt.
  await page.getByRole('button', { name: /^Send Kestrel/ }).click();
  await expect(active(page)).toHaveText('Kestrel');
  await expect(page.getByRole('listitem', { name: /Raider 1, Enemies/ })).toBeVisible();

  // Kestrel attacks Raider 1; the app rolls the test and the luck die.
  await page.keyboard.press('a');
  await page.getByRole('combobox', { name: 'Target' }).selectOption({ label: 'Raider 1' });
  await page.getByRole('button', { name: 'Attack', exact: true }).last().click();
  await expect(log(page).getByText(/^Kestrel attacks Raider 1/)).toBeVisible();
  // On a hit the defence window opens for Raider 1; the GM answers it from the prompt.
  const takeIt = page.getByRole('button', { name: 'Send Take the hit' });
  const missed = log(page).getByText(/Against evasion \d+: miss/);
  await expect(takeIt.or(missed)).toBeVisible();
  if (await takeIt.count()) {
    await takeIt.click();
    await expect(log(page).getByText(/^Raider 1 takes the hit\. Damage \d+/)).toBeVisible();
    // A hit this hard may ask for a consciousness check: the first choice answers it.
    const check = page.getByRole('region', { name: /consciousness|fortify/i }).getByRole('button').first();
    if (await check.count()) await check.click();
  }
  await expect(page.getByTestId('counter-actions')).toHaveAccessibleName('2 actions left');
  await page.screenshot({ path: 'e2e/screenshots/teams-fight.png' });

  // The other team sends its member next.
  await page.keyboard.press('n');
  await page.getByRole('button', { name: /^Send Raider 2/ }).click();
  await expect(active(page)).toHaveText('Raider 2');
});
