// The character editor (issue 28, point 8): a current value above its maximum is refused next to its field and
// nothing is saved; once a fight has been carried onto a character, the field says which value counts.
import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from './server.ts';

let dir = '';
let server: RunningServer | undefined;
test.beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'gmw-e2e-editor-')); });
test.afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('HP above Maximum HP is refused next to the field; a carried fight says which value counts', async ({ page }) => {
  const file = join(dir, 'editor.sqlite');
  server = await startServer(file);
  await page.goto(server.launchUrl);
  await page.getByRole('textbox', { name: 'Campaign name' }).fill('Hollow');
  await page.getByRole('combobox', { name: 'Ruleset' }).selectOption('cairn-errant');
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await page.getByRole('link', { name: '+ Party member' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Wren');
  await page.getByRole('spinbutton', { name: 'Maximum HP' }).fill('4');
  await page.getByRole('spinbutton', { name: 'HP', exact: true }).fill('15');
  const sentence = 'HP 15 is above Maximum HP 4: lower HP or raise Maximum HP.';
  const hpField = page.locator('label.field', { has: page.getByRole('spinbutton', { name: 'HP', exact: true }) });
  await expect(hpField.getByText(sentence)).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  // Nothing saved, and the field that says why takes focus (scrolled into view from the Save button).
  await expect(page.getByRole('spinbutton', { name: 'HP', exact: true })).toBeFocused();
  await page.screenshot({ path: '/tmp/in/editor-refusal.png' });
  await expect(page.getByRole('heading', { name: /New party member/ })).toBeVisible();
  expect(new Database(file, { readonly: true }).prepare('SELECT count(*) AS n FROM characters').get()).toEqual({ n: 0 });

  // At the maximum it saves.
  await page.getByRole('spinbutton', { name: 'HP', exact: true }).fill('4');
  await expect(hpField.getByText(sentence)).toHaveCount(0);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('link', { name: '+ Party member' })).toBeVisible();

  // A fight carried onto Wren (as the end of a fight writes it): the editor's HP is not what the next fight uses.
  const db = new Database(file);
  db.prepare('UPDATE characters SET state_json = ? WHERE name = ?').run(JSON.stringify({ hp: 2 }), 'Wren');
  db.close();
  await page.reload();
  await page.getByRole('link', { name: /Wren/ }).first().click();
  await expect(hpField.getByText('The campaign holds 2/4 from the last fight; this value is not used.')).toBeVisible();
  await page.screenshot({ path: '/tmp/in/editor-carried.png' });
});
