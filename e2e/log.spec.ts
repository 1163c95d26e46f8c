// Issue 28, point 7 (and point 2's log): a line belongs to the round it happened in — the Ogre's Sacrifice on its
// own round-1 turn under Round 1 in the full log and in the Markdown and HTML exports; attacks, damage and decisions
// are the prominent lines, turn bookkeeping the quiet ones; search marks its matches; a survivor is not struck
// through like the dead; the runner's log stays on its newest line after new lines, a reload, an undo and a form.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { activeName, encounterLog, useServer } from './fixtures.ts';

const gmw = useServer('log');

async function download(page: Page, click: () => Promise<void>): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return readFileSync(await file.path(), 'utf8');
}

/** An Enigma fight: Mira against a named Ogre (it faces Mortal Peril) and two Goblins, a fixed order, started. */
async function ogreFight(page: Page, file: string) {
  const server = await gmw.start(file);
  await page.goto(server.launchUrl);
  await page.getByRole('textbox', { name: 'Campaign name' }).fill('Nexus Nights');
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await page.getByRole('link', { name: '+ Party member' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Mira');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('link', { name: 'Mira', exact: true })).toBeVisible();
  for (const [name, named] of [['Ogre', true], ['Goblin', false]] as const) {
    await page.getByRole('link', { name: '+ NPC template' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    if (named) await page.getByRole('checkbox', { name: 'Named NPC (faces Mortal Peril)' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await page.getByRole('textbox', { name: 'Encounter name' }).fill('The bridge');
  await page.getByRole('button', { name: 'Prepare encounter' }).click();
  await page.getByRole('button', { name: 'Add Mira' }).click();
  await page.getByRole('spinbutton', { name: 'How many Goblin' }).fill('2');
  await page.getByRole('button', { name: 'Add Goblin' }).click();
  await page.getByRole('button', { name: 'Add Ogre' }).click();
  await page.getByRole('radio', { name: 'Fixed order' }).check();
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await expect(activeName(page)).toHaveText('Mira');
}

async function damage(page: Page, who: string, amount: number) {
  await page.getByRole('button', { name: `Damage or heal ${who}` }).click();
  await page.getByRole('spinbutton', { name: 'Amount' }).fill(String(amount));
  await page.getByRole('button', { name: 'Apply damage' }).click();
}

/** Where the runner log's newest line sits in the box that scrolls it: whole and inside, or not. */
const newestLine = (page: Page) =>
  encounterLog(page).evaluate((list) => {
    const last = list.lastElementChild as HTMLElement;
    let box: Element | null = list;
    while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowY)) box = box.parentElement;
    const line = last.getBoundingClientRect();
    const view = box!.getBoundingClientRect();
    return { text: last.textContent ?? '', inside: line.top >= view.top - 1 && line.bottom <= view.bottom + 1, overflows: box!.scrollHeight > box!.clientHeight };
  });

async function expectNewestShown(page: Page, text: RegExp | string, when: string) {
  await expect.poll(async () => (await newestLine(page)).text, { message: when }).toMatch(text);
  // Twice a frame apart: a line drawn at its real height must not push the newest one out afterwards.
  for (let i = 0; i < 2; i += 1) {
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await expect.poll(async () => (await newestLine(page)).inside, { message: `${when}: the newest line is in view` }).toBe(true);
  }
}

test("a line belongs to its round: the Ogre's Sacrifice on its own round-1 turn is under Round 1, in the log and the exports", async ({ page }) => {
  await ogreFight(page, 'ogre.sqlite');
  // Round 1: Mira, then the GM's side in its fixed order; the Ogre is last.
  for (const next of ['Goblin 1', 'Goblin 2', 'Ogre']) {
    await page.keyboard.press('n');
    await expect(activeName(page)).toHaveText(next);
  }
  await expect(page.getByTestId('counter-round')).toHaveAccessibleName('Round 1');
  await damage(page, 'Ogre', 30);
  await page.getByRole('textbox', { name: 'Legacy' }).fill('the bridge holds');
  await page.getByRole('button', { name: 'Sacrifice Ogre' }).click();
  await expect(page.getByTestId('counter-round')).toHaveAccessibleName('Round 2');
  const sacrifice = 'Mortal Peril: Ogre chooses Sacrifice and dies. Legacy: the bridge holds.';
  // The runner's log: R1 beside it.
  await expect(encounterLog(page).getByRole('listitem').filter({ hasText: sacrifice }).locator('.round')).toHaveText('R1');

  await page.getByRole('link', { name: 'Full log, summary and export ›' }).click();
  const full = page.getByRole('list', { name: 'Full encounter log' });
  await expect(full.getByText(sacrifice)).toBeVisible();
  // The heading above the Sacrifice is Round 1's; Round 2's comes after it.
  const headings = await full.locator('li').evaluateAll((rows) => rows.map((r) => r.textContent ?? ''));
  const at = headings.findIndex((t) => t.includes(sacrifice));
  expect(headings.slice(0, at).filter((t) => /^Round \d+$/.test(t)).at(-1)).toBe('Round 1');
  expect(headings.slice(at).some((t) => t === 'Round 2')).toBe(true);

  const md = await download(page, () => page.getByRole('button', { name: 'Markdown' }).click());
  const mdRound1 = md.slice(md.indexOf('Round 1'), md.indexOf('Round 2'));
  expect(mdRound1).toContain('Ogre chooses Sacrifice and dies');
  const html = await download(page, () => page.getByRole('button', { name: 'HTML' }).click());
  const htmlRound1 = html.slice(html.indexOf('Round 1'), html.indexOf('Round 2'));
  expect(htmlRound1).toContain('Ogre chooses Sacrifice and dies');
});

test('prominent and quiet lines, search marks its matches, a survivor is not struck through like the dead', async ({ page }) => {
  await ogreFight(page, 'lines.sqlite');
  await damage(page, 'Goblin 1', 1);
  const log = encounterLog(page);
  const hit = log.getByRole('listitem').filter({ hasText: /Goblin 1 takes 1 damage/ });
  const turn = log.getByRole('listitem').filter({ hasText: /Mira's turn/ }).first();
  const style = (l: typeof hit) => l.evaluate((el) => ({ size: parseFloat(getComputedStyle(el).fontSize), weight: Number(getComputedStyle(el).fontWeight), colour: getComputedStyle(el).color }));
  const [loud, quiet] = [await style(hit), await style(turn)];
  expect(loud.weight).toBeGreaterThanOrEqual(600);
  expect(loud.size).toBeGreaterThan(quiet.size);
  expect(loud.colour).not.toBe(quiet.colour);

  // Goblin 1 flees, Goblin 2 is killed: only the dead is struck through, and each says which in words.
  for (const [who, why] of [['Goblin 1', 'fled'], ['Goblin 2', 'dead']] as const) {
    await page.getByRole('button', { name: `Remove ${who} from the fight` }).click();
    const dialog = page.getByRole('dialog', { name: `Remove ${who}` });
    await dialog.getByRole('combobox', { name: 'Why does it leave the order?' }).fill(why);
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
  }
  const fled = page.getByRole('listitem', { name: 'Goblin 1, out of the fight, alive: fled' });
  const dead = page.getByRole('listitem', { name: 'Goblin 2, dead: dead' });
  const strike = (l: typeof fled) => l.locator('.name').evaluate((el) => getComputedStyle(el).textDecorationLine);
  expect(await strike(fled)).toBe('none');
  expect(await strike(dead)).toBe('line-through');
  await page.screenshot({ path: '/tmp/glance-removed.png' });

  // Search in the full log marks what it found, whatever the case typed.
  await page.getByRole('link', { name: 'Full log, summary and export ›' }).click();
  await page.getByRole('searchbox', { name: 'Search the log' }).fill('GOBLIN 1');
  const marks = page.getByRole('list', { name: 'Full encounter log' }).locator('mark');
  await expect(marks.first()).toHaveText('Goblin 1');
  expect(await marks.count()).toBeGreaterThanOrEqual(2);
  await page.screenshot({ path: '/tmp/glance-search.png' });
});

test('the log stays on its newest line: new lines, a reload, an undo, a form opening', async ({ page }) => {
  await ogreFight(page, 'newest.sqlite');
  await page.setViewportSize({ width: 1280, height: 800 });
  // Enough turns to fill the log card several times over. Each N waits for its turn to show: an N pressed again
  // before the last one's reply is a double press, which passes one turn (a loaded machine answers slower than the
  // keyboard repeats).
  for (let i = 0; i < 24; i += 1) {
    const acting = await activeName(page).textContent();
    await page.keyboard.press('n');
    await expect(activeName(page)).not.toHaveText(acting ?? '');
  }
  await expect.poll(async () => (await newestLine(page)).overflows).toBe(true);
  await expectNewestShown(page, /turn/, 'after new lines');
  await page.reload();
  await expect(activeName(page)).toBeVisible();
  await expectNewestShown(page, /turn/, 'after a reload');
  await damage(page, 'Goblin 1', 1);
  await expectNewestShown(page, /Goblin 1 takes 1 damage/, 'after damage');
  await page.keyboard.press('Control+z');
  await expect(encounterLog(page).getByText(/Goblin 1 takes 1 damage/)).toHaveCount(0);
  await expectNewestShown(page, /turn/, 'after an undo');
  await page.keyboard.press('a');
  await expect(page.getByRole('combobox', { name: 'Target' })).toBeVisible();
  await expectNewestShown(page, /turn/, 'after a form opened');
  await page.screenshot({ path: '/tmp/glance-log-form.png' });
});
