// Between sessions through the UI: a fight leaves an injury, the carry-over is checked and adjusted before the end
// is written, the session ends and the next starts, the party rests twice over two in-game days, the injury heals,
// and the character's history and the campaign timeline show all of it.
import { expect, test } from '@playwright/test';
import { encounterLog, prepareFight, useServer } from './fixtures.ts';

const gmw = useServer('sessions');

test('fight with an injury → end → next session → rest twice over two days → healed, with its history', async ({ page }) => {
  const server = await gmw.start('sessions.sqlite');
  await prepareFight(page, server, { campaign: 'Nexus Nights', ruleset: 'enigma', pc: 'Mira', npc: 'Thug', encounter: 'Alley' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();

  // Mira drops to 0 LP and survives with an injury of 2 rests (d4 typed as 2, × 1).
  await page.getByRole('button', { name: 'Damage or heal Mira' }).click();
  await page.getByRole('spinbutton', { name: 'Amount' }).fill('20');
  await page.getByRole('button', { name: 'Apply damage' }).click();
  await page.getByRole('textbox', { name: 'Cost of surviving' }).fill('a limp');
  await page.getByRole('radio', { name: 'New injury' }).check();
  await page.getByRole('combobox', { name: 'Injury category' }).selectOption('speed');
  await page.getByRole('combobox', { name: 'Injury name' }).fill('Sprained Knee');
  await page.getByRole('combobox', { name: 'Duration d4' }).selectOption('2');
  await page.getByRole('button', { name: 'Mira survives' }).click();
  await expect(encounterLog(page).getByText(/Injury: Sprained Knee \(speed\), 2 × 1 = 2 rests\./)).toBeVisible();

  // Ending shows what will be written before it is: LP 4 (half of d8) after the fight; the table agreed on 6.
  await page.getByRole('button', { name: 'End combat' }).click();
  await page.getByRole('dialog', { name: 'End combat' }).getByRole('button', { name: 'End combat' }).click();
  const carry = page.getByRole('dialog', { name: /Before the fight ends/ });
  await expect(carry.getByRole('row', { name: /^LP/ })).toContainText('4');
  await expect(carry.getByText('Gained in this fight: Sprained Knee')).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/carry-over.png' });
  await carry.getByRole('spinbutton', { name: /Mira: LP to write instead/ }).fill('6');
  await carry.getByRole('textbox', { name: 'Reason for the change' }).fill('a stim after the fight');
  await carry.getByRole('button', { name: 'Write with 1 change and end' }).click();
  await expect(encounterLog(page).getByText("GM override: Mira's LP is carried as 6 instead of 4 (a stim after the fight).")).toBeVisible();

  // The encounter started Session 1; end it and start Session 2 from the campaign home.
  await page.getByRole('link', { name: 'Nexus Nights' }).click();
  const clock = page.getByRole('region', { name: 'Campaign clock' });
  await expect(clock).toContainText('Session 1');
  await clock.getByRole('button', { name: 'End session' }).click();
  await clock.getByRole('button', { name: 'End Session 1' }).click();
  await expect(clock).toContainText('Between sessions');
  await clock.getByRole('button', { name: 'Start session' }).click();
  await clock.getByRole('textbox', { name: 'Session title' }).fill('The long road');
  await clock.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(clock).toContainText('The long road');

  // Recovery: the whole party rests on day 1; a second Rest the same day is refused with the reason.
  await page.getByRole('link', { name: 'Recovery' }).click();
  const mira = page.getByRole('article', { name: 'Mira' });
  await expect(mira.getByRole('list', { name: "Mira's injuries and wounds" })).toContainText('Sprained Knee 2 rests to go');
  const partyRest = async () => {
    await page.getByRole('group', { name: 'Whole party' }).getByRole('button', { name: 'Rest' }).click();
    await page.getByRole('form', { name: 'Rest for the whole party' }).getByRole('button', { name: 'Rest' }).click();
  };
  await partyRest();
  await expect(mira.getByRole('list', { name: "Mira's injuries and wounds" })).toContainText('Sprained Knee 1 rest to go');
  await partyRest();
  await expect(page.getByText('Mira has already rested today (day 1).')).toBeVisible();
  await page.getByRole('form', { name: 'Rest for the whole party' }).getByRole('button', { name: 'Cancel' }).click();

  // The next day the second Rest heals it.
  await page.getByRole('region', { name: 'Campaign clock' }).getByRole('button', { name: 'Advance a day' }).click();
  await expect(page.getByRole('region', { name: 'Campaign clock' })).toContainText('2');
  await partyRest();
  await expect(mira.getByText('No injuries or wounds.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Ledger' })).toContainText('A day passes: day 1 → day 2.');
  await page.screenshot({ path: 'e2e/screenshots/recovery.png', fullPage: true });

  // Undo the last Rest: the injury is open again, exactly as before; redo heals it again.
  await page.getByRole('button', { name: /^Undo: / }).click();
  await expect(mira.getByRole('list', { name: "Mira's injuries and wounds" })).toContainText('Sprained Knee 1 rest to go');
  await page.getByRole('button', { name: /^Redo: / }).click();
  await expect(mira.getByText('No injuries or wounds.')).toBeVisible();

  // Mira's history: where the injury came from, both Rests, and the day it healed.
  await mira.getByRole('link', { name: 'History' }).click();
  const record = page.getByRole('listitem', { name: /Sprained Knee/ });
  await expect(record).toContainText(/Gained on day 1 in Session 1 — Alley/);
  await expect(record.getByRole('list', { name: 'What changed Sprained Knee' }).getByRole('listitem')).toHaveCount(2);
  await expect(record).toContainText(/Healed on day 2 in Session 2/);
  await page.screenshot({ path: 'e2e/screenshots/history.png', fullPage: true });

  // The timeline: both sessions, the fight, the injury gained and healed, and the chart as a picture.
  await page.getByRole('link', { name: 'Nexus Nights' }).click();
  await page.getByRole('link', { name: 'Timeline' }).click();
  await expect(page.getByRole('img', { name: /open injuries/i })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Session 1/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Session 2 — The long road' })).toBeVisible();
  await expect(page.getByText(/Mira gained Sprained Knee in “Alley”/)).toBeVisible();
  await expect(page.getByText(/Mira's Sprained Knee healed/)).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/timeline.png', fullPage: true });

  // Notes for the recap, added afterwards.
  await page.getByRole('button', { name: 'Edit Session 1: title, date and notes' }).click();
  await page.getByRole('textbox', { name: 'Session notes' }).fill('Mira limped out of the alley.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Mira limped out of the alley.')).toBeVisible();
});
