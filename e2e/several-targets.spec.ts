// Several targets at once (issue 28 point 4): rows of the order of battle ticked by keyboard, the selection bar's
// Damage sends the ruleset's own damage event for each as one BATCH — each target's line in the log, each pool down,
// and one Ctrl+Z takes all of it back. Every ruleset's harm (Thrum's is Load) and a condition through the bar; a
// refused part said under the bar's form with nothing changed; Shift+click for a range and V for the acting row;
// axe-core with the bar's form open.
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { activeName, answerPrompt, encounterLog, prepareFight, rollThrumInitiative, useServer } from './fixtures.ts';

const gmw = useServer('several-targets');

const row = (page: Page, name: string) => page.getByRole('listitem', { name: new RegExp(`^(\\d+\\. )?${name},`) });
const pool = (page: Page, name: string) => row(page, name).locator('.pool .figures');
const box = (page: Page, name: string) => row(page, name).getByRole('checkbox', { name: `Select ${name}` });
/** The log's lines that name this combatant and say this. */
const logLines = (page: Page, name: string, text: string) => encounterLog(page).getByRole('listitem').filter({ hasText: new RegExp(`\\b${name}\\b`) }).filter({ hasText: text });
const undo = (page: Page) => page.getByRole('button', { name: /^Undo/ }).click();

/** Enigma, Ash and three goblins in a fixed order, Ash acting. */
async function enigmaFight(page: Page, file: string) {
  await prepareFight(page, await gmw.start(file), { campaign: 'Blast', ruleset: 'enigma', pc: 'Ash', npc: 'Goblin', npcCount: 3, encounter: 'Quarry' });
  await page.getByRole('radio', { name: 'Fixed order' }).check();
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await expect(activeName(page)).toHaveText('Ash');
}

/** Factions, Sybilla and two bandits: the party holds the initiative, goes first and puts Sybilla forward. */
async function factionsFight(page: Page, file: string) {
  await prepareFight(page, await gmw.start(file), { campaign: 'Murdham Nights', ruleset: 'factions', pc: 'Sybilla', npc: 'Bandit', npcCount: 2, encounter: 'Crossroads' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await answerPrompt(page, 'Send Party');
  await answerPrompt(page, 'Send Party');
  await page.getByRole('button', { name: 'Send Sybilla' }).click();
  await expect(activeName(page)).toHaveText('Sybilla');
}

/**
 * The bar's harm for the ticked `names` (the ruleset's own form, its fields filled by label): each one's line in the
 * log, each row changed; then one Undo takes all of it back.
 */
async function harmAllThenUndo(page: Page, button: string, fields: Record<string, string>, names: string[], said: string) {
  const before = await Promise.all(names.map((name) => row(page, name).textContent()));
  const bar = page.getByRole('group', { name: `${names.length} selected` });
  await bar.getByRole('button', { name: button, exact: true }).click();
  const form = page.getByRole('form', { name: `${button} for the selected` });
  for (const [label, value] of Object.entries(fields)) {
    const field = form.getByLabel(label, { exact: true });
    if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
  await form.getByRole('button', { name: `${button} all ${names.length}` }).click();
  await expect(form).toBeHidden();
  for (const [i, name] of names.entries()) {
    await expect(logLines(page, name, said)).toHaveCount(1);
    await expect(row(page, name)).not.toHaveText(before[i]!);
  }
  await undo(page);
  for (const [i, name] of names.entries()) {
    await expect(row(page, name)).toHaveText(before[i]!);
    await expect(logLines(page, name, said)).toHaveCount(0);
  }
}

/** The bar's Condition: the condition form opens with `names` ticked; each gets the chip, one line names them all; Undo. */
async function conditionAllThenUndo(page: Page, names: string[], condition: string) {
  await page.getByRole('group', { name: `${names.length} selected` }).getByRole('button', { name: 'Condition' }).click();
  const form = page.getByRole('form', { name: 'Add condition form' });
  for (const name of names) await expect(form.getByRole('checkbox', { name, exact: true })).toBeChecked();
  await form.getByRole('combobox', { name: 'Condition' }).fill(condition);
  await form.getByRole('button', { name: 'Add condition', exact: true }).click();
  await expect(form).toBeHidden();
  for (const name of names) await expect(row(page, name).getByTestId('condition-chip')).toHaveText(new RegExp(condition));
  const line = encounterLog(page).getByText(new RegExp(`^The GM puts ${condition} on `));
  await expect(line).toHaveCount(1);
  for (const name of names) await expect(line).toContainText(name);
  await undo(page);
  for (const name of names) await expect(row(page, name).getByTestId('condition-chip')).toHaveCount(0);
  await expect(line).toHaveCount(0);
}

test('Enigma: an explosion on three by keyboard, each logged, one undo', async ({ page }) => {
  await enigmaFight(page, 'enigma.sqlite');
  const goblins = ['Goblin 1', 'Goblin 2', 'Goblin 3'];
  const before = await Promise.all(goblins.map((g) => pool(page, g).textContent()));
  const lp = (text: string | null) => Number(/LP\s*(\d+)/.exec(text ?? '')![1]);

  // A checkbox per row, reached by keyboard: focus, Space.
  for (const g of goblins) {
    await row(page, g).getByRole('checkbox', { name: `Select ${g}` }).focus();
    await page.keyboard.press('Space');
  }
  const bar = page.getByRole('group', { name: '3 selected' });
  await expect(bar).toBeVisible();
  await expect(bar).toContainText('3 selected');
  await bar.getByRole('button', { name: 'Damage' }).click();
  const form = page.getByRole('form', { name: 'Damage for the selected' });
  await expect(form.getByRole('spinbutton', { name: 'Amount' })).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('2');
  await page.keyboard.press('Tab');
  await page.keyboard.type('an explosion');
  await page.screenshot({ path: '/tmp/multi/enigma-three-selected.png' });
  await page.keyboard.press('Enter');
  await expect(form).toBeHidden();

  for (const [i, g] of goblins.entries()) {
    await expect(encounterLog(page).getByText(new RegExp(`^${g} takes 2 damage`))).toBeVisible();
    await expect(pool(page, g)).toContainText(`LP ${lp(before[i]!) - 2}/`);
  }
  await expect(pool(page, 'Ash')).toHaveText(/LP (\d+)\/\1/);
  await page.screenshot({ path: '/tmp/multi/enigma-after.png' });

  // One undo: all three back.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+z');
  for (const [i, g] of goblins.entries()) await expect(pool(page, g)).toHaveText(before[i]!);
  await expect(encounterLog(page).getByText(/^Goblin \d takes 2 damage/)).toHaveCount(0);

  // Condition for the selection: the condition form opens with the three ticked.
  await bar.getByRole('button', { name: 'Condition' }).click();
  const condition = page.getByRole('form', { name: 'Add condition form' });
  for (const g of goblins) await expect(condition.getByRole('checkbox', { name: g, exact: true })).toBeChecked();
  await expect(condition.getByRole('checkbox', { name: 'Ash', exact: true })).not.toBeChecked();
  await page.keyboard.press('Escape');

  // Clear empties the selection and the bar goes.
  await bar.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByTestId('selection-bar')).toHaveCount(0);
  await expect(row(page, 'Goblin 1').getByRole('checkbox')).not.toBeChecked();
});

test('Teams: a rockslide on three through the ruleset\'s own damage form, one undo', async ({ page }) => {
  await prepareFight(page, await gmw.start('teams.sqlite'), { campaign: 'Iron Pact', ruleset: 'teams', pc: 'Kestrel', npc: 'Raider', npcCount: 2, encounter: 'Toll bridge' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await page.getByRole('button', { name: /^Send Kestrel/ }).click();
  await expect(activeName(page)).toHaveText('Kestrel');
  const everyone = ['Kestrel', 'Raider 1', 'Raider 2'];
  const stats = (name: string) => row(page, name).locator('.stats');
  const before = await Promise.all(everyone.map((name) => stats(name).textContent()));

  for (const name of everyone) await row(page, name).getByRole('checkbox', { name: `Select ${name}` }).check();
  const bar = page.getByRole('group', { name: '3 selected' });
  await bar.getByRole('button', { name: 'Damage', exact: true }).click();
  const form = page.getByRole('form', { name: 'Damage for the selected' });
  // The ruleset's own fields, less the target: amount, type, nonlethal, source.
  await expect(form.getByRole('combobox', { name: 'Type' })).toBeVisible();
  // A yes/no field has its box beside its words, on one line (not under a label of its own).
  const flag = (await form.getByRole('checkbox', { name: 'Nonlethal source' }).boundingBox())!;
  const words = (await form.getByText('Nonlethal source', { exact: true }).boundingBox())!;
  expect(Math.abs(flag.y + flag.height / 2 - (words.y + words.height / 2))).toBeLessThan(6);
  await form.getByRole('spinbutton', { name: 'Damage' }).fill('2');
  await form.getByRole('textbox', { name: 'Source' }).fill('a rockslide');
  await page.screenshot({ path: '/tmp/multi/teams-three-selected.png' });
  await form.getByRole('button', { name: 'Damage all 3' }).click();
  await expect(form).toBeHidden();
  for (const [i, name] of everyone.entries()) {
    await expect(encounterLog(page).getByText(new RegExp(`^${name} takes 2 damage from a rockslide`))).toBeVisible();
    await expect(stats(name)).not.toHaveText(before[i]!);
  }

  await page.getByRole('button', { name: /^Undo/ }).click();
  for (const [i, name] of everyone.entries()) await expect(stats(name)).toHaveText(before[i]!);
  await expect(encounterLog(page).getByText(/takes 2 damage from a rockslide/)).toHaveCount(0);
});

test('Factions: a falling beam on both bandits, then Prone on both, each taken back by one undo', async ({ page }) => {
  await factionsFight(page, 'factions.sqlite');
  const bandits = ['Bandit 1', 'Bandit 2'];
  for (const name of bandits) await box(page, name).check();
  await harmAllThenUndo(page, 'Damage', { Amount: '3', Source: 'a falling beam' }, bandits, 'a falling beam');
  await conditionAllThenUndo(page, bandits, 'Prone');
});

test('Cairn-Errant: falling rocks on all three, then Blinded on them, each taken back by one undo', async ({ page }) => {
  await prepareFight(page, await gmw.start('cairn.sqlite'), { campaign: 'Blackwood', ruleset: 'cairn-errant', pc: 'Wren', npc: 'Ghoul', npcCount: 2, encounter: 'Barrow' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  const everyone = ['Wren', 'Ghoul 1', 'Ghoul 2'];
  for (const name of everyone) await box(page, name).check();
  await harmAllThenUndo(page, 'Damage', { Amount: '1', Source: 'falling rocks' }, everyone, 'falling rocks');
  await conditionAllThenUndo(page, everyone, 'Blinded');
});

test('Thrum: a gas cloud loads three with Fatigue, then Choking on them, each taken back by one undo', async ({ page }) => {
  await prepareFight(page, await gmw.start('thrum.sqlite'), { campaign: 'Hollow Roads', ruleset: 'thrum', pc: 'Ash', npc: 'Husk', npcCount: 2, encounter: 'Ruins' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  const everyone = ['Ash', 'Husk 1', 'Husk 2'];
  await rollThrumInitiative(page, everyone);
  for (const name of everyone) await box(page, name).check();
  // Thrum's harm is Load: Fatigue or Stress, the ruleset's own choice field.
  await harmAllThenUndo(page, 'Load', { Load: 'fatigue', Amount: '2', Source: 'a gas cloud' }, everyone, 'a gas cloud');
  await conditionAllThenUndo(page, everyone, 'Choking');
});

test('a refused part: the app\'s sentence under the bar\'s form naming whose, the form kept, nothing changed; axe in both themes', async ({ page }) => {
  await factionsFight(page, 'refused.sqlite');
  // Bandit 1 is hurt first; Sybilla is at full health, which Factions refuses to heal.
  await box(page, 'Bandit 1').check();
  const bar = page.getByTestId('selection-bar');
  await bar.getByRole('button', { name: 'Damage', exact: true }).click();
  await page.getByRole('form', { name: 'Damage for the selected' }).getByLabel('Amount', { exact: true }).fill('3');
  await page.getByRole('button', { name: 'Damage Bandit 1' }).click();
  await expect(page.getByRole('form', { name: 'Damage for the selected' })).toBeHidden();

  await box(page, 'Sybilla').check();
  const rows = ['Sybilla', 'Bandit 1', 'Bandit 2'];
  const before = await Promise.all(rows.map((name) => row(page, name).textContent()));
  const lines = await encounterLog(page).getByRole('listitem').count();
  await bar.getByRole('button', { name: 'Heal', exact: true }).click();
  const form = page.getByRole('form', { name: 'Heal for the selected' });
  await form.getByLabel('Amount', { exact: true }).fill('2');
  await form.getByLabel('Source', { exact: true }).fill('a potion');
  await form.getByRole('button', { name: 'Heal all 2' }).click();

  await expect(form.getByRole('alert')).toHaveText('Nothing was applied: the part for Sybilla is refused. Sybilla is already at full health.');
  await expect(form.getByLabel('Amount', { exact: true })).toHaveValue('2');
  await expect(form.getByLabel('Source', { exact: true })).toHaveValue('a potion');
  for (const [i, name] of rows.entries()) await expect(row(page, name)).toHaveText(before[i]!);
  await expect(encounterLog(page).getByRole('listitem')).toHaveCount(lines);
  await page.screenshot({ path: '/tmp/multi/refused.png' });

  // The runner with a selection, the bar's form open and its refusal: no serious or critical axe finding.
  for (const theme of ['dark', 'light'] as const) {
    await page.evaluate((chosen) => (document.documentElement.dataset['theme'] = chosen), theme);
    await expectAccessible(page, `${theme} runner with the selection bar's form open`, theme === 'light' ? ['color-contrast'] : undefined);
  }
  await page.evaluate(() => (document.documentElement.dataset['theme'] = 'dark'));

  // Sybilla unticked, the same form heals Bandit 1 alone, and the sentence goes.
  await box(page, 'Sybilla').uncheck();
  await form.getByRole('button', { name: 'Heal Bandit 1' }).click();
  await expect(form).toBeHidden();
  await expect(logLines(page, 'Bandit 1', 'a potion')).toHaveCount(1);
});

test('Shift+click ticks a range in the order shown; V ticks the acting row; axe with the form open', async ({ page }) => {
  await enigmaFight(page, 'range.sqlite');
  const shown = (await page.locator('input.pick').evaluateAll((boxes) => boxes.map((b) => b.getAttribute('aria-label')!.replace(/^Select /, ''))));
  expect(shown).toHaveLength(4);
  const expectTicked = async (ticked: string[]) => {
    for (const name of shown) await (ticked.includes(name) ? expect(box(page, name)).toBeChecked() : expect(box(page, name)).not.toBeChecked());
  };
  const goblins = shown.filter((name) => name !== 'Ash');

  // The first goblin shown, then Shift on the last: every row between is ticked too.
  await box(page, goblins[0]!).click();
  await box(page, goblins[2]!).click({ modifiers: ['Shift'] });
  await expectTicked(shown.slice(shown.indexOf(goblins[0]!), shown.indexOf(goblins[2]!) + 1));
  await expect(page.getByRole('group', { name: '3 selected' })).toBeVisible();

  // V ticks the acting combatant's row (focus away from the boxes, as at the table).
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('v');
  await expectTicked(shown);
  // Shift on a ticked box unticks every row from the last one ticked (Ash, by V) to it.
  await box(page, goblins[1]!).click({ modifiers: ['Shift'] });
  const [from, to] = [shown.indexOf('Ash'), shown.indexOf(goblins[1]!)].sort((a, b) => a - b);
  await expectTicked(shown.filter((_, i) => i < from! || i > to!));
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('v');
  await expect(box(page, 'Ash')).toBeChecked();

  // The shortcut sheet lists V and Shift+click with the runner's keys.
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: /shortcuts/i });
  await expect(sheet).toContainText("Tick or untick the acting combatant's row");
  await expect(sheet).toContainText('Shift+click');
  await page.keyboard.press('Escape');

  // The runner with the selection and the bar's form open: no serious or critical axe finding, dark and light.
  await page.getByTestId('selection-bar').getByRole('button', { name: 'Damage', exact: true }).click();
  await expect(page.getByRole('form', { name: 'Damage for the selected' })).toBeVisible();
  await page.screenshot({ path: '/tmp/multi/range.png' });
  for (const theme of ['dark', 'light'] as const) {
    await page.evaluate((chosen) => (document.documentElement.dataset['theme'] = chosen), theme);
    await expectAccessible(page, `${theme} runner with a selection and the bar's form open`, theme === 'light' ? ['color-contrast'] : undefined);
  }
});
