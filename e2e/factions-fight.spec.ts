// A short Factions (Murdham) fight through the generic runner: the initiative holder chooses the first faction,
// factions put forward a character or pass, an attack hits automatically and its damage is rolled by the app.
import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from './server.ts';

let dir: string;
let server: RunningServer | undefined;
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gmw-e2e-factions-'));
});
test.afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const active = (page: Page) => page.getByTestId('active-name');
const log = (page: Page) => page.getByRole('list', { name: 'Encounter log' });

test('a Factions fight: first faction, a character put forward, an automatic hit, passing', async ({ page }) => {
  server = await startServer(join(dir, 'factions.sqlite'));
  await page.goto(server.launchUrl);
  await page.getByRole('textbox', { name: 'Campaign name' }).fill('Murdham Nights');
  await page.getByRole('combobox', { name: 'Ruleset' }).selectOption('factions');
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await page.getByRole('link', { name: '+ Party member' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Sybilla');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('link', { name: '+ NPC template' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Bandit');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('textbox', { name: 'Encounter name' }).fill('Crossroads');
  await page.getByRole('button', { name: 'Prepare encounter' }).click();
  await page.getByRole('button', { name: 'Add Sybilla' }).click();
  await page.getByRole('spinbutton', { name: 'How many Bandit' }).fill('2');
  await page.getByRole('button', { name: 'Add Bandit' }).click();
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  // The party started it and holds the initiative; it chooses to go first and puts Sybilla forward.
  await page.getByRole('button', { name: 'Send Party' }).click();
  await page.getByRole('button', { name: 'Send Party' }).click();
  await page.getByRole('button', { name: 'Send Sybilla' }).click();
  await expect(active(page)).toHaveText('Sybilla');
  // The runner shows what Sybilla may still do this turn (§3.3).
  await expect(page.getByTestId('counter-turnLeft')).toContainText('bonus action · main action (or a 2nd bonus) · zone move');

  // An attack on Bandit 1 hits automatically; the target may react, then the app rolls the damage.
  await page.keyboard.press('a');
  await page.getByRole('checkbox', { name: 'Bandit 1' }).check();
  await page.getByRole('button', { name: 'Attack', exact: true }).last().click();
  // Bandit 1 may react with its turn; it does not, and the GM rolls the damage from the prompt.
  await expect(page.getByRole('region', { name: 'Sybilla attacks Bandit 1. React (it takes this round\'s turn), or not?' })).toBeVisible();
  await page.locator('.prompt .choices button').first().click();
  await page.locator('.prompt .choices button').first().click();
  await expect(page.getByRole('listitem', { name: /Bandit 1/ }).locator('.hp')).not.toHaveText(/^10\//);
  await page.screenshot({ path: 'e2e/screenshots/factions-fight.png' });
});
