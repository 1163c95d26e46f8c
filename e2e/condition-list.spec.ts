// A campaign's own condition list, as a GM edits it: on an Any system campaign's home the panel "Conditions this
// table uses" starts from the ruleset's (5e) list; a list with a name twice is refused in the panel with a sentence
// and nothing changes; the saved list is what the runner's condition form suggests, and a name from it is put on by
// keyboard. The keyboard alone reaches the panel's controls, and the home still fits 1280×800 with it open.
import { expect, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { apiOf, encounterLog, prepareFight, useServer } from './fixtures.ts';
import { layoutFindings } from './layout.ts';

const servers = useServer('condition-list');

test('the GM edits an Any system campaign\'s condition list, and the runner suggests it; a name twice is refused', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const server = await servers.start('condition-list.sqlite');
  const api = apiOf(request, server);
  await prepareFight(page, server, { campaign: 'Saltmarsh', ruleset: 'Any system', pc: 'Ada', npc: 'Kobold', encounter: 'Warren' });

  // Back on the campaign's home: the panel, opened by keys, shows the ruleset's list.
  await page.goto(server.launchUrl);
  await page.getByRole('link', { name: 'Saltmarsh' }).click();
  const panel = page.locator('details', { hasText: 'Conditions this table uses' });
  await expect(panel.locator('summary')).toContainText('Any system’s list');
  await panel.locator('summary').focus();
  await page.keyboard.press('Enter');
  const list = panel.getByRole('textbox', { name: /Condition names, one a line/ });
  await expect(list).toBeVisible();
  await expect(list).toHaveValue(/^Blinded\nCharmed\n/);
  await expect(panel.getByRole('button', { name: 'Start from Any system’s list' })).toBeDisabled();

  // A name twice (case aside): the sentence in the panel, and the campaign keeps the ruleset's list.
  await page.keyboard.press('Tab');
  await expect(list).toBeFocused();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('Hexed\nBlinded\nhexed');
  await page.keyboard.press('Tab');
  await expect(panel.getByRole('button', { name: 'Save list' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(panel.getByRole('alert')).toHaveText('“hexed” is in the list twice (names are compared without regard to case).');
  const campaigns = await api<{ id: string; name: string }[]>('campaigns:list', {});
  const saltmarsh = campaigns.find((c) => c.name === 'Saltmarsh')!;
  expect(await api('campaigns:get', { id: saltmarsh.id })).toMatchObject({ conditionNamesOwn: false });
  await expectAccessible(page, 'campaign home with the condition list refused');

  // Mended and saved by keys: the summary says it is this campaign's own list.
  await list.focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('Hexed\nBlinded\n\nMarked for death  ');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(panel.locator('summary')).toContainText('3 suggested in fights (this campaign’s own list)');
  await expect(panel.getByRole('alert')).toHaveCount(0);
  await expect(list).toHaveValue('Hexed\nBlinded\nMarked for death');
  await expect(panel.getByRole('button', { name: 'Start from Any system’s list' })).toBeEnabled();
  expect(await layoutFindings(page)).toEqual([]);

  // The encounter: the condition form suggests the table's list, and Hexed goes on Ada by keys.
  await page.getByRole('region', { name: 'Encounters' }).getByRole('link', { name: 'Warren' }).click();
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await expect(page.getByRole('link', { name: 'Full log, summary and export ›' })).toBeVisible();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('x');
  const form = page.getByRole('form', { name: 'Add condition form' });
  await expect(form.getByRole('checkbox', { name: 'Ada' })).toBeFocused();
  await expect(form.locator('datalist option')).toHaveCount(3);
  expect(await form.locator('datalist option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(['Hexed', 'Blinded', 'Marked for death']);
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(form.getByRole('combobox', { name: 'Condition' })).toBeFocused();
  await page.keyboard.type('Hexed');
  await page.keyboard.press('Enter');
  await expect(form).toBeHidden();
  await expect(page.getByTestId('condition-chip').filter({ hasText: 'Hexed' })).toHaveCount(1);
  await expect(encounterLog(page).getByText(/^The GM puts Hexed on Ada/)).toBeVisible();

  // Back to the ruleset's list from the panel: the runner suggests it again.
  await page.goto(server.launchUrl);
  await page.getByRole('link', { name: 'Saltmarsh' }).click();
  await panel.locator('summary').click();
  await panel.getByRole('button', { name: 'Start from Any system’s list' }).click();
  await expect(panel.locator('summary')).toContainText('Any system’s list');
  await expect(list).toHaveValue(/^Blinded\nCharmed\n/);
  await expect(page.getByText(/at .*\.ts:\d+|TypeError|stack/)).toHaveCount(0);
});
