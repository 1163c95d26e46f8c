// Issue 28, point 6 — the end of a fight, in Chromium at 1280×800 as a GM plays it: Mortal Peril asks once when the
// words of a Survive (its cost) or a Sacrifice (its legacy) are empty; the end-of-fight review lists what changes
// (everything on request) in words, not "fresh" or "Escalation — → 2"; an override needs its reason; after
// *Write and end* one press (Enter) goes to Recovery.
import { expect, test } from '@playwright/test';
import { encounterLog, prepareFight, useServer } from './fixtures.ts';
import type { RunningServer } from './server.ts';

const gmw = useServer('ending');
let server: RunningServer;
test.beforeAll(async () => {
  server = await gmw.start('ending.sqlite');
});

async function toPeril(page: import('@playwright/test').Page, who: string) {
  await page.getByRole('button', { name: `Damage or heal ${who}` }).click();
  await page.getByRole('spinbutton', { name: 'Amount' }).fill('20');
  await page.getByRole('button', { name: 'Apply damage' }).click();
  await expect(page.getByRole('textbox', { name: 'Cost of surviving' })).toBeVisible();
}

test('Survive with an empty cost asks once; the review shows what changes in words; an override needs its reason; then Recovery', async ({ page }) => {
  await prepareFight(page, server, { campaign: 'Nexus Nights', ruleset: 'enigma', pc: 'Mira', npc: 'Thug', encounter: 'Alley' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await toPeril(page, 'Mira');

  // By keyboard: the question has focus when it appears, and 2 goes to Survive's cost.
  await expect(page.getByRole('alertdialog', { name: /Mortal Peril/ })).toBeFocused();
  await page.keyboard.press('2');
  await expect(page.getByRole('textbox', { name: 'Cost of surviving' })).toBeFocused();
  // The first Enter with no cost written says so next to the field and sends nothing; the second goes on.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'The cost is empty' })).toContainText('write what Mira gives up, or press again to survive with no cost written.');
  await expect(page.getByRole('button', { name: 'Mira survives with no cost' })).toBeVisible();
  await expect(encounterLog(page)).not.toContainText('chooses Survive');
  await page.keyboard.press('Enter');
  await expect(encounterLog(page)).toContainText('Mortal Peril: Mira chooses Survive');

  await page.getByRole('button', { name: 'End combat' }).click();
  await page.getByRole('dialog', { name: 'End combat' }).getByRole('button', { name: 'End combat' }).click();
  const review = page.getByRole('dialog', { name: /Before the fight ends/ });
  // What changes, by default: LP (half of the d8 Endure after a Survive); the values the fight leaves as they were
  // are behind "Show every value".
  await expect(review.getByRole('row', { name: /^LP/ })).toBeVisible();
  await expect(review.getByRole('row', { name: /^Healing restriction/ })).toHaveCount(0);
  await expect(review).not.toContainText('fresh');
  await expect(review).not.toContainText('—');
  await expect(review).toContainText('For the whole party: Escalation is kept at 1 (the campaign held none before).');
  await page.screenshot({ path: '/tmp/ending-review.png' });
  const everything = review.getByRole('button', { name: /^Show every value \(\d+ unchanged\)$/ });
  await everything.click();
  await expect(review.getByRole('row', { name: /^Healing restriction/ })).toBeVisible();
  await expect(review.getByRole('row', { name: /^LP/ })).toContainText('as on the sheet');
  await page.screenshot({ path: '/tmp/ending-review-all.png' });
  await review.getByRole('button', { name: 'Show only what changes' }).click();

  // An override without its reason is said next to the field and writes nothing.
  await review.getByRole('spinbutton', { name: /Mira: LP to write instead/ }).fill('6');
  await review.getByRole('button', { name: 'Write with 1 change and end' }).click();
  await expect(review.getByRole('alert')).toHaveText('Say why the table changed this value: the override is logged with its reason.');
  await expect(review.getByRole('textbox', { name: 'Reason for the change' })).toBeFocused();
  await page.screenshot({ path: '/tmp/ending-reason.png' });
  await expect(encounterLog(page)).not.toContainText('Combat ends');
  await review.getByRole('textbox', { name: 'Reason for the change' }).fill('a stim after the fight');
  await review.getByRole('button', { name: 'Write with 1 change and end' }).click();
  await expect(encounterLog(page)).toContainText("GM override: Mira's LP is carried as 6");

  // One step to Recovery: the link has focus, Enter follows it.
  const next = page.getByRole('link', { name: 'Go to Recovery ›' });
  await expect(next).toBeFocused();
  await page.screenshot({ path: '/tmp/ending-after.png' });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('article', { name: 'Mira' })).toBeVisible();
});

test('Sacrifice with an empty legacy asks once, then goes on', async ({ page }) => {
  await prepareFight(page, server, { campaign: 'Last Stand', ruleset: 'enigma', pc: 'Ash', npc: 'Brute', encounter: 'Gate' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await toPeril(page, 'Ash');
  await expect(page.getByRole('alertdialog', { name: /Mortal Peril/ })).toBeFocused();
  await page.keyboard.press('1');
  await expect(page.getByRole('textbox', { name: 'Legacy' })).toBeFocused();
  await expect(page.getByRole('textbox', { name: 'Legacy' })).toHaveValue('');
  await page.getByRole('button', { name: 'Sacrifice Ash' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The legacy is empty' })).toContainText('press again to sacrifice Ash with none written.');
  await page.screenshot({ path: '/tmp/ending-sacrifice.png' });
  await expect(encounterLog(page)).not.toContainText('chooses Sacrifice');
  await page.getByRole('button', { name: 'Sacrifice Ash with no legacy' }).click();
  await expect(encounterLog(page)).toContainText('Mortal Peril: Ash chooses Sacrifice and dies.');
});
