// The runner with the keyboard alone (issue 28, point 1): a form opened by its shortcut takes focus on its first
// field, Enter sends it, Esc closes it and puts focus back; prompt choices and targets by number keys; `?` opens
// the ruleset's shortcut sheet. Set-up goes through the UI as the other specs do; once the runner shows, only
// `page.keyboard` acts.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { activeName, encounterLog, prepareFight, useServer } from './fixtures.ts';

const gmw = useServer('keyboard');
let server: Awaited<ReturnType<typeof gmw.start>>;
test.beforeAll(async () => {
  server = await gmw.start('keyboard.sqlite');
});

// A fight of every ruleset, played by keys, takes longer than one click-through.
test.describe.configure({ timeout: 180_000 });

const logLine = (page: Page, text: string | RegExp) => encounterLog(page).getByText(text);

async function enigmaFight(page: Page, campaign: string) {
  await page.goto(server.launchUrl);
  await page.getByRole('textbox', { name: 'Campaign name' }).fill(campaign);
  await page.getByRole('button', { name: 'Create campaign' }).click();
  for (const [link, name] of [['+ Party member', 'Mira'], ['+ NPC template', 'Thug']] as const) {
    await page.getByRole('link', { name: link }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
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

// ---- a fight of every ruleset with the keyboard alone ----

/** Tab (forwards) until `target` holds focus: how a GM reaches a button with no shortcut. */
async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 80; i += 1) {
    // A target not on the page fails here in seconds instead of waiting out the test.
    if (await target.evaluate((el) => el === document.activeElement, undefined, { timeout: 5000 }).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the element');
}

/** Types a number as digits (a prompt choice, a target). */
async function typeNumber(page: Page, n: number) {
  for (const digit of String(n)) await page.keyboard.press(digit);
}

const choices = (page: Page) => page.locator('.prompt .choices button');

/** Answers the prompt with the choice whose label matches, by typing its number (read from its key hint). */
async function answer(page: Page, label: RegExp) {
  const choice = choices(page).filter({ hasText: label }).first();
  await expect(choice).toBeVisible();
  const n = Number(await choice.locator('kbd').textContent());
  const text = await page.locator('.prompt h2').textContent();
  await typeNumber(page, n);
  await expect(page.locator('.prompt h2').filter({ hasText: text! })).toHaveCount(0, { timeout: 5000 }).catch(() => undefined);
}

/** Answers whatever prompts come with their first choice (key 1), up to `most` of them. */
async function answerFirst(page: Page, most: number) {
  for (let i = 0; i < most; i += 1) {
    if (!(await choices(page).first().isVisible().catch(() => false))) return;
    const text = await page.locator('.prompt h2').textContent();
    await page.keyboard.press('1');
    await page.waitForFunction((t) => document.querySelector('.prompt h2')?.textContent !== t, text, { timeout: 5000 }).catch(() => undefined);
  }
}

/** Picks a target in the focused form by its number: Tab to the list (or the group's first box), type its number. */
async function pickTarget(page: Page, list: Locator, name: string) {
  await tabTo(page, list);
  const labels = (await list.locator('option').allTextContents()).map((t) => t.trim());
  const label = labels.find((t) => t.replace(/^\[\d+\] /, '').startsWith(name));
  const n = Number(label?.match(/^\[(\d+)\]/)?.[1]);
  expect(n).toBeGreaterThan(0);
  await typeNumber(page, n);
  await expect(list.locator('option:checked')).toHaveText(new RegExp(`^\\[${n}\\] ${name}`));
}

async function tickTarget(page: Page, group: Locator, name: string) {
  await tabTo(page, group.getByRole('checkbox').first());
  const label = group.locator('label').filter({ hasText: new RegExp(`^\\s*\\d+\\s+${name}\\s*$`) });
  const n = Number(await label.locator('kbd').textContent());
  await typeNumber(page, n);
  await expect(label.getByRole('checkbox')).toBeChecked();
}

/** Starts the prepared fight from the prep screen with the keyboard. */
async function startByKeys(page: Page) {
  await tabTo(page, page.getByRole('button', { name: 'Start combat ▸' }));
  await page.keyboard.press('Enter');
  // The prepare screen has an "Order of battle" too: the runner is there once Start combat is gone and its log card
  // (with the link to the full log) shows.
  await expect(page.getByRole('button', { name: 'Start combat ▸' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Full log, summary and export ›' })).toBeVisible();
}

/** Ends the fight by keys: End combat, Enter on the outcome, the carry-over check written. */
async function endByKeys(page: Page) {
  const over = page.getByText('Combat over');
  const ending = page.getByRole('dialog', { name: /Before the fight ends/ });
  // The dice may have ended the fight on the way (a side is out): then only the carry-over check is left.
  if (!(await over.isVisible()) && !(await ending.isVisible())) {
    await tabTo(page, page.getByRole('button', { name: 'End combat' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'End combat' })).toBeVisible();
    await page.keyboard.press('Enter');
  }
  // What the end still asks (a Factions durability roll after the fight) is answered with its first choice, then
  // the carry-over check is written.
  const carry = page.getByRole('dialog', { name: /Before the fight ends/ });
  for (let i = 0; i < 20 && !(await page.getByText('Combat over').isVisible()); i += 1) {
    if (await carry.isVisible()) {
      await tabTo(page, carry.getByRole('button', { name: 'Write and end' }));
      await page.keyboard.press('Enter');
    } else if (await choices(page).first().isVisible()) await answerFirst(page, 1);
    await page.waitForTimeout(200);
  }
  await expect(page.getByText('Combat over')).toBeVisible();
}

async function undoByKeys(page: Page, line: RegExp) {
  await expect(logLine(page, line).first()).toBeVisible();
  const count = await logLine(page, line).count();
  await page.keyboard.press('Control+z');
  await expect(logLine(page, line)).toHaveCount(count - 1);
}

async function blur(page: Page) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

test('Enigma by keys: move, attack with a target by number, undo, next turns, several rounds, the end', async ({ page }) => {
  await page.goto(server.launchUrl);
  await page.getByRole('textbox', { name: 'Campaign name' }).fill('Keys Enigma');
  await page.getByRole('button', { name: 'Create campaign' }).click();
  for (const [link, name] of [['+ Party member', 'Mira'], ['+ NPC template', 'Thug']] as const) {
    await page.getByRole('link', { name: link }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await page.getByRole('textbox', { name: 'Encounter name' }).fill('Alley');
  await page.getByRole('button', { name: 'Prepare encounter' }).click();
  await page.getByRole('button', { name: 'Add Mira' }).click();
  await page.getByRole('spinbutton', { name: 'How many Thug' }).fill('2');
  await page.getByRole('button', { name: 'Add Thug' }).click();
  await page.getByRole('radio', { name: 'Fixed order' }).check();
  await startByKeys(page);
  await expect(activeName(page)).toHaveText('Mira');

  await page.keyboard.press('m');
  await page.keyboard.press('3');
  await page.keyboard.press('Enter');
  await expect(logLine(page, /^Mira moves 3/)).toBeVisible();
  await page.keyboard.press('a');
  await pickTarget(page, page.getByRole('combobox', { name: 'Target' }), 'Thug 2');
  await page.keyboard.press('Enter');
  await expect(logLine(page, /^Mira attacks Thug 2/)).toBeVisible();
  await undoByKeys(page, /^Mira attacks Thug 2/);
  await page.keyboard.press('a');
  await page.keyboard.press('Enter');
  await expect(logLine(page, /^Mira attacks Thug 1/)).toBeVisible();
  // Damage through the form: D, the list by number, the amount typed, Enter.
  await page.keyboard.press('d');
  await page.keyboard.press('3');
  await page.keyboard.press('Tab');
  await page.keyboard.press('2');
  await page.keyboard.press('Enter');
  await expect(logLine(page, /Thug 2.*2/).first()).toBeVisible();
  await playTo(page, 2);
  await expect(page.getByTestId('counter-round')).not.toHaveAccessibleName('Round 1');
  await endByKeys(page);
});

/** Plays on with the keyboard: a prompt gets its first choice (1), otherwise N ends the turn; until `round` or the end. */
async function playTo(page: Page, round: number) {
  const carry = page.getByRole('dialog', { name: /Before the fight ends/ });
  for (let i = 0; i < 120; i += 1) {
    if (await page.getByText('Combat over').isVisible()) return;
    if (await carry.isVisible()) return;
    const label = await page.getByTestId('counter-round').getAttribute('aria-label');
    if (Number(label?.replace('Round ', '')) >= round) return;
    const before = await page.locator('.now').textContent();
    await page.keyboard.press(await choices(page).first().isVisible() ? '1' : 'n');
    await page.waitForFunction((t) => document.querySelector('.now')?.textContent !== t, before, { timeout: 3000 }).catch(() => undefined);
  }
}

/** Several rounds played, or the fight over on the way (the app's dice decide). */
async function expectRoundOrEnd(page: Page, round: number) {
  await expect(page.getByRole('group', { name: `Round ${round}` }).or(page.getByText('Combat over')).or(page.getByRole('dialog', { name: /Before the fight ends/ })).first()).toBeVisible();
}

test('Teams by keys: a member sent by number, an attack on a target by number, undo, the defence, rounds, the end', async ({ page }) => {
  await prepareFight(page, server, { campaign: 'Keys Teams', ruleset: 'teams', pc: 'Kestrel', npc: 'Raider', npcCount: 2, encounter: 'Toll bridge' });
  await startByKeys(page);
  await answer(page, /Kestrel/);
  await expect(activeName(page)).toHaveText('Kestrel');
  await page.keyboard.press('a');
  await expect(page.getByRole('combobox', { name: 'Attacker' })).toBeFocused();
  await pickTarget(page, page.getByRole('combobox', { name: 'Target' }), 'Raider 2');
  await page.keyboard.press('Enter');
  await expect(logLine(page, /^Kestrel attacks Raider 2/)).toBeVisible();
  await undoByKeys(page, /^Kestrel attacks Raider 2/);
  await page.keyboard.press('a');
  await page.keyboard.press('Enter');
  await expect(logLine(page, /^Kestrel attacks Raider 1/)).toBeVisible();
  await answerFirst(page, 3);
  await page.keyboard.press('n');
  await answer(page, /Raider 2/);
  await expect(activeName(page)).toHaveText('Raider 2');
  await playTo(page, 3);
  await expectRoundOrEnd(page, 3);
  await endByKeys(page);
});

test('Factions by keys: a 12-choice prompt answered by typing 11, an attack on a ticked target, undo, rounds, the end', async ({ page }) => {
  await prepareFight(page, server, { campaign: 'Keys Factions', ruleset: 'factions', pc: 'Sybilla', npc: 'Bandit', npcCount: 11, encounter: 'Crossroads' });
  await startByKeys(page);
  await answer(page, /Party/);
  await answer(page, /Enemies/);
  // Eleven bandits and Pass: twelve choices, each with its number; 1 then 1 typed quickly is Bandit 11.
  await expect(choices(page)).toHaveCount(12);
  await expect(choices(page).last().locator('kbd')).toHaveText('12');
  await page.screenshot({ path: '/tmp/keys/factions-12-choices.png' });
  await typeNumber(page, 11);
  await expect(activeName(page)).toHaveText('Bandit 11');
  await page.keyboard.press('a');
  await tickTarget(page, page.getByRole('group', { name: 'Targets' }), 'Sybilla');
  await page.keyboard.press('Enter');
  await answer(page, /No reaction/);
  await undoByKeys(page, /Sybilla.*(reaction|react)/i);
  await answer(page, /No reaction/);
  await answerFirst(page, 3);
  await expect(page.getByRole('listitem', { name: /Sybilla/ }).locator('.hp')).not.toHaveText(/^(\d+)\/\1/);
  await playTo(page, 3);
  await expectRoundOrEnd(page, 3);
  await endByKeys(page);
});

test('Cairn-Errant by keys: a range band, intents with targets by number, undo and redo, the round\'s prompts, the end', async ({ page }) => {
  await prepareFight(page, server, { campaign: 'Keys Cairn', ruleset: 'cairn-errant', pc: 'Wren', npc: 'Ghoul', encounter: 'Barrow' });
  await startByKeys(page);
  await page.keyboard.press('b');
  await pickTarget(page, page.getByRole('combobox', { name: 'Who' }), 'Ghoul');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: 'Band' })).toBeFocused();
  await page.keyboard.press('n');
  await expect(page.getByRole('combobox', { name: 'Band' })).toHaveValue('near');
  await page.keyboard.press('Enter');
  await expect(logLine(page, 'Ghoul is Near from the party.')).toBeVisible();
  await page.keyboard.press('i');
  await pickTarget(page, page.getByRole('combobox', { name: 'Target' }), 'Ghoul');
  await page.keyboard.press('Enter');
  await expect(logLine(page, /^Wren declares/)).toBeVisible();
  await page.keyboard.press('e');
  await pickTarget(page, page.getByRole('combobox', { name: 'Target' }), 'Wren');
  await page.keyboard.press('Enter');
  await undoByKeys(page, /Ghoul('s intent| declares)/);
  await page.keyboard.press('Control+Shift+z');
  await expect(logLine(page, /Ghoul('s intent| declares)/).first()).toBeVisible();
  await page.keyboard.press('l');
  await page.keyboard.press('Enter');
  await expect(choices(page).first()).toBeVisible();
  await playTo(page, 2);
  const carry = page.getByRole('dialog', { name: /Before the fight ends/ });
  if (await carry.isVisible()) {
    await tabTo(page, carry.getByRole('button', { name: 'Write and end' }));
    await page.keyboard.press('Enter');
  }
  await expect(logLine(page, /^Damage on (Ghoul|Wren)/).first()).toBeVisible();
  if (!(await page.getByText('Combat over').isVisible())) await endByKeys(page);
  await expect(page.getByText('Combat over')).toBeVisible();
});

test('Thrum by keys: initiative, stances, an attack on a ticked target, the defence by number, undo, the end', async ({ page }) => {
  await prepareFight(page, server, { campaign: 'Keys Thrum', ruleset: 'thrum', pc: 'Ash', npc: 'Husk', encounter: 'Ruins' });
  await startByKeys(page);
  await answerFirst(page, 2);
  await expect(page.getByTestId('counter-stage')).toContainText('Round Zero');
  for (let i = 0; i < 2; i += 1) {
    const name = (await activeName(page).textContent())!;
    await page.keyboard.press('s');
    await expect(page.getByRole('textbox', { name: 'Stance' })).toBeFocused();
    await page.keyboard.type('Guarded');
    await page.keyboard.press('Enter');
    await expect(logLine(page, new RegExp(`^${name}.*Guarded`))).toBeVisible();
    // N is a shortcut only outside a field: the stance form has closed and handed focus back before it is pressed.
    await expect(page.getByRole('textbox', { name: 'Stance' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Next turn' })).toBeEnabled();
    await page.keyboard.press('n');
    if (i === 0) await expect(activeName(page)).not.toHaveText(name);
  }
  await expect(page.getByTestId('counter-round')).toHaveAccessibleName('Round 1');
  const attacker = (await activeName(page).textContent())!;
  const defender = attacker === 'Ash' ? 'Husk' : 'Ash';
  await page.keyboard.press('a');
  await tickTarget(page, page.getByRole('group', { name: 'Targets', exact: true }), defender);
  await page.keyboard.press('Enter');
  await answer(page, /Resilience/);
  await undoByKeys(page, new RegExp(`${defender}.*Resilience`));
  await answer(page, /Resilience/);
  await answerFirst(page, 3);
  await playTo(page, 3);
  await expectRoundOrEnd(page, 3);
  await endByKeys(page);
});

test('Any system by keys: initiative for each in turn with I and Enter, round 1, damage on a target by number, undo, turns, the end', async ({ page }) => {
  await prepareFight(page, server, { campaign: 'Keys Any', ruleset: 'Any system', pc: 'Ada', npc: 'Kobold', npcCount: 2, encounter: 'Warren' });
  await startByKeys(page);
  // The form offers only those still without an initiative and starts on the first: I, Enter rolls for each in turn.
  for (let i = 0; i < 3; i += 1) {
    await page.keyboard.press('i');
    await expect(page.getByRole('combobox', { name: 'Who' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('combobox', { name: 'Who' })).toHaveCount(0);
  }
  for (const name of ['Ada', 'Kobold 1', 'Kobold 2']) await expect(logLine(page, new RegExp(`^${name} rolls initiative`))).toBeVisible();
  await page.keyboard.press('b');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('counter-round')).toHaveAccessibleName('Round 1');
  await expect(activeName(page)).not.toHaveText('');
  // The initiative tools leave the panel once round 1 begins; the fight's own stay.
  await expect(page.getByRole('button', { name: 'Roll initiative' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Begin round 1' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Damage' })).toBeEnabled();

  await page.keyboard.press('d');
  await pickTarget(page, page.getByRole('combobox', { name: 'Target' }), 'Kobold 2');
  await tabTo(page, page.getByRole('spinbutton', { name: 'Damage' }));
  await page.keyboard.press('Control+a');
  await page.keyboard.type('3');
  await page.keyboard.press('Enter');
  await undoByKeys(page, /^Kobold 2 takes 3 damage/);
  await blur(page);
  const first = (await activeName(page).textContent())!;
  await page.keyboard.press('n');
  await expect(activeName(page)).not.toHaveText(first);
  await endByKeys(page);
});
