// A short Enigma fight through the UI: movement, an attack with dice typed in, a defeat, a reaction, Mortal Peril
// answered with Survive and an injury, the end of combat, and the consequences on the campaign home.
import { expect, test, type Page } from '@playwright/test';
import { chooseCombatant, useServer } from './fixtures.ts';

const gmw = useServer('enigma');

async function character(page: Page, link: string, name: string, dice: Record<string, string>) {
  await page.getByRole('link', { name: link }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  for (const [capacity, size] of Object.entries(dice)) await page.getByRole('combobox', { name: capacity }).selectOption(size);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
}

const active = (page: Page) => page.getByTestId('active-name');
const logLine = (page: Page, text: string | RegExp) => page.getByRole('list', { name: 'Encounter log' }).getByText(text);

test('an Enigma fight: actions, typed dice, defeat, reaction, Mortal Peril, injury, carry-over', async ({ page }) => {
  const server = await gmw.start('enigma.sqlite');
  await page.goto(server.launchUrl);
  await page.getByRole('textbox', { name: 'Campaign name' }).fill('Nexus Nights');
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await character(page, '+ Party member', 'Mira', { Endure: '10', Navigate: '10', Attack: '10' });
  await character(page, '+ NPC template', 'Thug', { Endure: '4' });
  await page.getByRole('textbox', { name: 'Encounter name' }).fill('Alley');
  await page.getByRole('button', { name: 'Prepare encounter' }).click();
  await page.getByRole('button', { name: 'Add Mira' }).click();
  await page.getByRole('spinbutton', { name: 'How many Thug' }).fill('2');
  await page.getByRole('button', { name: 'Add Thug' }).click();
  await page.getByRole('radio', { name: 'Fixed order' }).check();
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await expect(active(page)).toHaveText('Mira');
  await expect(page.getByTestId('counter-actions')).toHaveAccessibleName('2 actions left');

  // Move 9 with 1 pause (speed 10): one action left (ENIGMA-07).
  await page.keyboard.press('m');
  await page.getByRole('spinbutton', { name: 'Spaces' }).fill('9');
  await page.getByRole('spinbutton', { name: 'Pauses' }).fill('1');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('counter-actions')).toHaveAccessibleName('1 action left');

  // Attack Thug 1 with physical dice: 9 + Escalation 1 = 10 against Endure 2: hit for 1.
  await page.keyboard.press('a');
  await chooseCombatant(page.getByRole('combobox', { name: 'Target' }), 'Thug 1 (4 LP)');
  await page.getByRole('radio', { name: 'I rolled physical dice' }).check();
  // A word typed as a face is refused in the form, next to its field, in the GM's words; nothing is sent.
  const attackFaces = page.getByRole('textbox', { name: /Mira: Attack faces/ });
  await attackFaces.fill('abc');
  await page.getByRole('textbox', { name: /Thug 1: Endure faces/ }).fill('2');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(attackFaces).toHaveAccessibleDescription('"abc" is not a die face: type one face from 1 to 10.');
  await expect(page.getByText('"abc" is not a die face: type one face from 1 to 10.')).toBeVisible();
  await expect(page.getByText(/malformed/)).toHaveCount(0);
  await expect(page.getByTestId('counter-actions')).toHaveAccessibleName('1 action left');
  await page.screenshot({ path: '/tmp/in/dice-refusal.png' });
  await attackFaces.fill('9');
  await expect(page.getByText('"abc" is not a die face', { exact: false })).toHaveCount(0);
  await page.getByRole('textbox', { name: /Thug 1: Endure faces/ }).fill('2');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(logLine(page, /Attack d10 \[9\] \(typed in\) → 9 \+ Escalation 1 = 10 against Endure d4 \[2\] \(typed in\) → 2, hit for 1/)).toBeVisible();
  await expect(page.getByTestId('counter-actions')).toHaveAccessibleName('0 actions left');
  await expect(page.getByRole('button', { name: 'Move', exact: true })).toBeDisabled();

  // Thug 2 reacts on Mira's turn: it owes one action next turn.
  await page.keyboard.press('r');
  await chooseCombatant(page.getByRole('combobox', { name: 'Reactor' }), 'Thug 2');
  await page.getByRole('textbox', { name: 'Power' }).fill('Shove');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('owes 1 action')).toBeVisible();

  // The GM deals 3 to Thug 1 from the row: 0 LP, defeated and out of the order (R-E8). Enter in the amount sends
  // it, and the form sends its event itself: the browser never submits it (lib/form-keys.ts).
  await page.evaluate(() => {
    const counted = window as unknown as { submits: number };
    counted.submits = 0;
    addEventListener('submit', () => (counted.submits += 1), true);
  });
  await page.getByRole('button', { name: 'Damage or heal Thug 1' }).click();
  await page.getByRole('spinbutton', { name: 'Amount' }).fill('3');
  await page.getByRole('spinbutton', { name: 'Amount' }).press('Enter');
  await expect(logLine(page, 'Thug 1 takes 3 damage: 0 LP, defeated.')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { submits: number }).submits)).toBe(0);

  await page.keyboard.press('n');
  await expect(active(page)).toHaveText('Thug 2');
  await expect(page.getByTestId('counter-actions')).toHaveAccessibleName('1 action left');

  // Thug 2 brings Mira to 0 LP: Mortal Peril blocks everything until she chooses.
  await page.getByRole('button', { name: 'Damage or heal Mira' }).click();
  await page.getByRole('spinbutton', { name: 'Amount' }).fill('12');
  await page.getByRole('button', { name: 'Apply damage' }).click();
  await expect(page.getByRole('alertdialog', { name: /Mira is at 0 LP: Mortal Peril/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Next turn' })).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Cost of surviving' }).fill('a scar across the face');
  await page.getByRole('radio', { name: 'New injury' }).check();
  await page.getByRole('combobox', { name: 'Injury category' }).selectOption('speed');
  await page.getByRole('combobox', { name: 'Injury name' }).fill('Sprained Knee');
  await page.getByRole('combobox', { name: 'Duration d4' }).selectOption('3');
  await page.getByRole('button', { name: 'Mira survives' }).click();
  await expect(logLine(page, /Mira chooses Survive .* LP 5\. Injury: Sprained Knee \(speed\), 3 × 1 = 3 rests\./)).toBeVisible();
  await expect(page.getByText('Sprained Knee · 3 rests')).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/enigma-fight.png' });

  await page.getByRole('button', { name: 'End combat' }).click();
  await page.getByRole('dialog', { name: 'End combat' }).getByRole('button', { name: 'End combat' }).click();
  // The carry-over check: LP 5 and the injury will be written onto Mira; nothing is written until confirmed.
  const carry = page.getByRole('dialog', { name: /Before the fight ends/ });
  await expect(carry.getByRole('row', { name: /^LP/ })).toContainText('5');
  await carry.getByRole('button', { name: 'Write and end' }).click();
  await expect(logLine(page, /Combat ends: Victory/)).toBeVisible();

  // The campaign home shows what the fight left: LP 5, the injury, Escalation 1 carried.
  await page.getByRole('link', { name: 'Nexus Nights' }).click();
  await expect(page.getByText('LP 5')).toBeVisible();
  await expect(page.getByText('Sprained Knee · 3 rests')).toBeVisible();
  await expect(page.getByText('Escalation 1', { exact: true })).toBeVisible();
});
