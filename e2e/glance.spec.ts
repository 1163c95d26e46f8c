// Issue 28, point 2: the runner read at a glance from across the table, at any size. The "Now acting" card keeps the
// active name whole in large type at 1280×800, 1440×900, 1920×1080 and 200 % zoom (720×450 CSS pixels) — Factions
// with its seven counters, Enigma, and Teams, Cairn-Errant, Thrum and Any system with an action form open; each row's
// main pool is a bar with its maximum and a word when bloodied or down; the log's newest line stays in view beside a long form
// (Factions at 1280×800 keeps five lines); a question waiting for the GM (Teams' defence, point 9) is brought into
// view and focused; long names wrap or ellipsize; a paste past a field's limit says it was cut; toasts never cover the
// log and go once their cause is gone. Screenshots go to /tmp/glance-*.png.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { activeName, answerPrompt, chooseCombatant, encounterLog, prepareFight, useServer } from './fixtures.ts';

const gmw = useServer('glance');

const SIZES = [
  { width: 1280, height: 800, label: '1280x800' },
  { width: 1440, height: 900, label: '1440x900' },
  { width: 1920, height: 1080, label: '1920x1080' },
  // 200 % zoom of a 1440×900 window: the same CSS layout as a 720×450 viewport.
  { width: 720, height: 450, label: 'zoom200' },
] as const;

/** The box and type of an element, as the browser laid it out. */
const measure = (locator: Locator) =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return { scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, scrollHeight: el.scrollHeight, clientHeight: el.clientHeight, fontSize: parseFloat(getComputedStyle(el).fontSize), width: box.width, right: box.right, bottom: box.bottom, viewport: window.innerWidth, viewportHeight: window.innerHeight };
  });

/**
 * The part of an element the GM can see: its box cut by every scrolling ancestor (the side column, the action panel,
 * the page) and by the window. Zero height when it lies above or below the fold.
 */
const visibleBox = (locator: Locator) =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    let top = Math.max(box.top, 0);
    let bottom = Math.min(box.bottom, window.innerHeight);
    for (let up = el.parentElement; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      // A box that draws nothing of its own (display: contents, as the side column at 200 %) clips nothing.
      if (style.overflowY === 'visible' || style.display === 'contents') continue;
      const clip = up.getBoundingClientRect();
      top = Math.max(top, clip.top);
      bottom = Math.min(bottom, clip.bottom);
    }
    return { top, bottom, height: Math.max(0, bottom - top), full: box.height };
  });

/** The active name is shown whole (not clipped across or down) in large type, on a card wide enough to read. */
async function nowCardReadable(page: Page, name: string | RegExp, shot: string, atEachSize?: (size: (typeof SIZES)[number]) => Promise<void>) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expect(activeName(page)).toHaveText(name);
    await page.screenshot({ path: `/tmp/glance-${shot}-${size.label}.png` });
    const m = await measure(activeName(page));
    expect(m.scrollWidth, `${shot} at ${size.label}: the name is not cut across`).toBeLessThanOrEqual(m.clientWidth);
    expect(m.scrollHeight, `${shot} at ${size.label}: the name is not cut below`).toBeLessThanOrEqual(m.clientHeight + 1);
    expect(m.fontSize, `${shot} at ${size.label}: large type`).toBeGreaterThanOrEqual(32);
    expect(m.width, `${shot} at ${size.label}: the card is not squeezed`).toBeGreaterThanOrEqual(Math.min(300, size.width * 0.6));
    expect(m.right).toBeLessThanOrEqual(m.viewport);
    expect(m.bottom, `${shot} at ${size.label}: seen without scrolling`).toBeLessThanOrEqual(m.viewportHeight);
    await atEachSize?.(size);
  }
}

/**
 * The log's newest line is seen whole: in the window at a desktop size, and in its card once the card is scrolled to
 * at 200 % (the runner is then a page that scrolls).
 */
async function newestLineSeen(page: Page, label: string, zoomed: boolean) {
  const newest = encounterLog(page).locator('li').last();
  if (zoomed) await page.getByTestId('log-scroller').scrollIntoViewIfNeeded();
  const seen = await visibleBox(newest);
  expect(seen.height, `${label}: the log's newest line is seen whole`).toBeGreaterThanOrEqual(seen.full - 1);
}

/** Every row's main pool: its value and maximum, with a bar. */
async function poolsWithMaximum(page: Page) {
  const pools = page.locator('.slots .pool');
  expect(await pools.count()).toBeGreaterThan(1);
  for (const pool of await pools.all()) {
    await expect(pool).toHaveText(/^\S.* \d+\/\d+( \w+)?$/);
    expect((await pool.locator('.bar').boundingBox())?.width ?? 0).toBeGreaterThan(20);
  }
}

/** Answers each question with its first choice (key 1) until a turn is open (the name on the Now card). */
async function answerUntilActive(page: Page, tries = 8) {
  const prompt = page.locator('section.prompt');
  const shown = async () => (await prompt.allTextContents()).join('|');
  for (let i = 0; i < tries; i += 1) {
    await expect(prompt.or(activeName(page)).first()).toBeVisible();
    if (await activeName(page).isVisible()) return;
    const question = await shown();
    await page.keyboard.press('1');
    await expect.poll(async () => (await activeName(page).isVisible()) || (await shown()) !== question).toBe(true);
  }
}


test('the Now acting card: a Factions fight with its seven counters, at every size', async ({ page }) => {
  await prepareFight(page, await gmw.start('factions.sqlite'), { campaign: 'Murdham Nights', ruleset: 'factions', pc: 'Sybilla', npc: 'Bandit', npcCount: 2, encounter: 'Crossroads' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await answerPrompt(page, 'Send Party');
  await answerPrompt(page, 'Send Party');
  await page.getByRole('button', { name: 'Send Sybilla' }).click();
  await nowCardReadable(page, 'Sybilla', 'factions');
  // Every row's main pool: its value and maximum, with a bar.
  const bandit = page.getByRole('listitem', { name: /Bandit 1/ }).locator('.pool');
  await expect(bandit).toHaveText(/^Health \d+\/\d+$/);
  await expect(bandit.locator('.bar')).toBeVisible();
});

// Teams, Cairn-Errant, Thrum and Any system, each mid-fight with an action form open and a condition on a row: the Now card at
// every size, each row's pool with its maximum, and the log's newest line in view.
const RULESETS = [
  {
    ruleset: 'teams', npc: 'Raider', name: 'Kestrel', form: 'a',
    async begin(page: Page) {
      await page.getByRole('button', { name: /^Send Kestrel/ }).click();
      return 'Kestrel' as string | RegExp;
    },
  },
  {
    ruleset: 'cairn-errant', npc: 'Ghoul', name: 'Wren', form: 'd',
    async begin(page: Page) {
      // Both declare something other than an attack; locked, the round is ordered and Wren's moment opens.
      await expect(encounterLog(page).getByText('Round 1: declare intents.')).toBeVisible();
      for (const [key, who] of [['i', 'Wren'], ['e', 'Ghoul 1']] as const) {
        await page.keyboard.press(key);
        const form = page.getByRole('form', { name: /intent form/ });
        await expect(form.getByRole('combobox', { name: 'Who' }).locator('option').first()).toBeAttached();
        await chooseCombatant(form.getByRole('combobox', { name: 'Who' }), who);
        await form.getByRole('combobox', { name: 'Intent' }).selectOption('other');
        await form.getByRole('combobox', { name: 'Intent' }).press('Enter');
        await expect(encounterLog(page).getByText(new RegExp(`(${who} declares|sets ${who}'s intent)`))).toBeVisible();
      }
      await page.keyboard.press('l');
      await page.getByRole('button', { name: 'Lock intents', exact: true }).last().click();
      await answerUntilActive(page);
      return /^(Wren|Ghoul \d)$/;
    },
  },
  {
    ruleset: 'thrum', npc: 'Husk', name: 'Ash', form: 's',
    async begin(page: Page) {
      // Initiative rolled by the app from the prompt; Round Zero opens on whoever rolled higher.
      await answerUntilActive(page);
      return /^(Ash|Husk \d)$/;
    },
  },
  {
    ruleset: 'any-system', npc: 'Goblin', name: 'Ada', form: 'd',
    async begin(page: Page) {
      // Initiative rolled for each in turn (I, Enter), then round 1 begins on the highest.
      await expect(page.getByRole('button', { name: 'Roll initiative', exact: true })).toBeEnabled();
      for (let i = 0; i < 3; i += 1) {
        await page.keyboard.press('i');
        await expect(page.getByRole('combobox', { name: 'Who' })).toBeFocused();
        await page.keyboard.press('Enter');
        await expect(page.getByRole('combobox', { name: 'Who' })).toHaveCount(0);
      }
      await page.keyboard.press('b');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('counter-round')).toHaveAccessibleName('Round 1');
      return /^(Ada|Goblin \d)$/;
    },
  },
] as const;

for (const plan of RULESETS) {
  test(`${plan.ruleset}: the Now card, pools with their maximum and the log's newest line, at every size with a form open`, async ({ page }) => {
    await prepareFight(page, await gmw.start(`${plan.ruleset}.sqlite`), { campaign: `Glance ${plan.ruleset}`, ruleset: plan.ruleset, pc: plan.name, npc: plan.npc, npcCount: 2, encounter: 'Ford' });
    await page.getByRole('button', { name: 'Start combat ▸' }).click();
    const name = await plan.begin(page);
    // A condition on the last row, and an action form open.
    await page.keyboard.press('x');
    const conditions = page.getByRole('form', { name: 'Add condition form' });
    await conditions.getByRole('checkbox').last().check();
    await conditions.getByRole('combobox', { name: 'Condition' }).fill('Stunned');
    await page.keyboard.press('Enter');
    await expect(encounterLog(page).getByText(/puts Stunned on/)).toBeVisible();
    await page.keyboard.press(plan.form);
    await expect(page.getByRole('form').first()).toBeVisible();
    await poolsWithMaximum(page);
    await nowCardReadable(page, name, plan.ruleset, (size) => newestLineSeen(page, `${plan.ruleset} at ${size.label}`, size.width < 960));
  });
}

test('Teams: the defence prompt after an attack typed from physical dice is in view, focused and reachable, at 1280×800 and 200 %', async ({ page }) => {
  await prepareFight(page, await gmw.start('teams-defence.sqlite'), { campaign: 'Iron Pact', ruleset: 'teams', pc: 'Kestrel', npc: 'Raider', npcCount: 2, encounter: 'Toll bridge' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await page.getByRole('button', { name: /^Send Kestrel/ }).click();
  await expect(activeName(page)).toHaveText('Kestrel');
  for (const size of [SIZES[0], SIZES[3]]) {
    await page.setViewportSize(size);
    // The long attack form, its dice typed in: the field last typed in (at the form's foot) holds the scroll.
    await page.keyboard.press('a');
    const form = page.getByRole('form', { name: 'Attack form' });
    await form.getByRole('radio', { name: 'I rolled physical dice' }).check();
    await form.getByRole('textbox', { name: /attack test.*faces/ }).fill('6 6');
    const luck = form.getByRole('textbox', { name: /luck die.*faces/ });
    await luck.fill('10');
    await luck.press('Enter');
    await expect(encounterLog(page).getByText(/^Kestrel attacks Raider 1 .*\(typed in\).*: hit/)).toBeVisible();
    const prompt = page.getByTestId('prompt');
    await expect(prompt.getByRole('button', { name: 'Send Take the hit' })).toBeVisible();
    await page.screenshot({ path: `/tmp/glance-teams-defence-${size.label}.png` });
    // The question takes focus (Tab goes on to its answers; its number keys answer it) ...
    await expect(prompt).toBeFocused();
    // ... and every answer is seen whole where the GM looks, not scrolled away above or below the fold.
    for (const answer of await prompt.getByRole('button').all()) {
      const seen = await visibleBox(answer);
      expect(seen.height, `${size.label}: ${await answer.textContent()} is in view`).toBeGreaterThanOrEqual(seen.full - 1);
      const hit = await answer.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return el.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
      });
      expect(hit, `${size.label}: nothing covers ${await answer.textContent()}`).toBe(true);
    }
    // Undone, the attack leaves no question behind: the next size starts from the same turn.
    await page.keyboard.press('Control+z');
    await expect(prompt).toHaveCount(0);
  }
});

test('Factions at 1280×800 with the attack form open: the log keeps five lines in view, the form scrolls in its card', async ({ page }) => {
  await prepareFight(page, await gmw.start('factions-log.sqlite'), { campaign: 'Murdham Nights', ruleset: 'factions', pc: 'Sybilla', npc: 'Bandit', npcCount: 2, encounter: 'Crossroads' });
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await answerPrompt(page, 'Send Party');
  await answerPrompt(page, 'Send Party');
  await page.getByRole('button', { name: 'Send Sybilla' }).click();
  await expect(activeName(page)).toHaveText('Sybilla');
  await page.setViewportSize(SIZES[0]);
  await page.keyboard.press('a');
  const form = page.getByRole('form', { name: 'Attack form' });
  await expect(form).toBeVisible();
  await page.screenshot({ path: '/tmp/glance-factions-form-1280x800.png' });
  // Five lines of the log's height in view (a one-line entry is the measure), the newest one whole.
  const lines = encounterLog(page).locator('li');
  expect(await lines.count()).toBeGreaterThanOrEqual(5);
  const oneLine = Math.min(...(await lines.evaluateAll((items) => items.map((li) => li.getBoundingClientRect().height))));
  const log = await visibleBox(page.getByTestId('log-scroller'));
  expect(log.height, 'the log shows five lines or more').toBeGreaterThanOrEqual(5 * oneLine);
  await newestLineSeen(page, 'factions at 1280x800 with a form open', false);
  // The form stays usable: its first field in view with focus, its button reached by scrolling its card (or Enter).
  const first = form.getByRole('combobox').first();
  await expect(first).toBeFocused();
  expect((await visibleBox(first)).height).toBeGreaterThan(0);
  // The Conditions card steps aside while the form is open, so the form shows more than a line of itself.
  await expect(page.getByRole('heading', { name: 'Conditions' })).toBeHidden();
  expect((await visibleBox(form)).height, 'the open form shows at least 200 px of itself').toBeGreaterThanOrEqual(200);
  const send = form.getByRole('button', { name: 'Attack', exact: true });
  await send.scrollIntoViewIfNeeded();
  const seen = await visibleBox(send);
  expect(seen.height).toBeGreaterThanOrEqual(seen.full - 1);
  await newestLineSeen(page, 'factions at 1280x800, the form scrolled to its button', false);
});

test('Enigma: the Now card at every size, pool bars bloodied and down in words, long names kept inside', async ({ page }) => {
  const server = await gmw.start('enigma.sqlite');
  // The longest names the limits allow, with no space to break at.
  const longCampaign = `Campaign${'X'.repeat(72)}`;
  const longPc = `Mirabel ${'Q'.repeat(72)}`;
  expect(longPc).toHaveLength(80);
  await prepareFight(page, server, { campaign: longCampaign, ruleset: 'enigma', pc: 'Mira', npc: 'Thug', npcCount: 2, encounter: 'Alley' });
  await page.getByRole('radio', { name: 'Fixed order' }).check();
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await nowCardReadable(page, 'Mira', 'enigma');
  await page.setViewportSize({ width: 1440, height: 900 });

  // LP 8/8 (Endure d8), then 4 damage: LP 4/8, bloodied (in words, not only in colour); the bar follows.
  const thug = page.getByRole('listitem', { name: /Thug 1/ }).locator('.pool');
  await expect(thug).toHaveText('LP 8/8');
  await expect(thug).toHaveAttribute('data-state', 'fine');
  await page.getByRole('button', { name: 'Damage or heal Thug 1' }).click();
  await page.getByRole('spinbutton', { name: 'Amount' }).fill('4');
  await page.getByRole('button', { name: 'Apply damage' }).click();
  await expect(thug).toHaveText('LP 4/8 bloodied');
  await expect(thug).toHaveAttribute('data-state', 'bloodied');
  const fill = await thug.locator('.fill').evaluate((el) => el.getBoundingClientRect().width / el.parentElement!.getBoundingClientRect().width);
  expect(fill).toBeCloseTo(0.5, 1);
  await page.screenshot({ path: '/tmp/glance-enigma-bloodied.png' });

  // An 80-character name with no space to break at: the runner's breadcrumb wraps and keeps End combat on screen;
  // the campaign home heading and a party member's card keep it inside the page.
  for (const size of [SIZES[0], SIZES[3]]) {
    await page.setViewportSize(size);
    const end = await measure(page.getByRole('button', { name: 'End combat' }));
    expect(end.right, `End combat on screen at ${size.label}`).toBeLessThanOrEqual(end.viewport);
  }
  await page.getByRole('link', { name: longCampaign }).click();
  await page.getByRole('link', { name: '+ Party member' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(longPc);
  await page.getByRole('button', { name: 'Save' }).click();
  const heading = page.getByRole('heading', { level: 1, name: longCampaign });
  await expect(heading).toBeVisible();
  for (const size of [SIZES[0], SIZES[3]]) {
    await page.setViewportSize(size);
    const h = await measure(heading);
    expect(h.scrollWidth).toBeLessThanOrEqual(h.clientWidth);
    expect(h.right).toBeLessThanOrEqual(h.viewport);
    await page.screenshot({ path: `/tmp/glance-home-long-${size.label}.png`, fullPage: true });
    // Each card on the campaign home keeps its text inside.
    for (const card of await page.locator('.card').all()) {
      const c = await measure(card);
      expect(c.scrollWidth, 'a card keeps its text inside').toBeLessThanOrEqual(c.clientWidth + 1);
    }
  }
});

test('a 10,000-character paste into a name field says it was cut to the limit', async ({ page, context }) => {
  const server = await gmw.start('paste.sqlite');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(server.launchUrl);
  const field = page.getByRole('textbox', { name: 'Campaign name' });
  await page.evaluate(() => navigator.clipboard.writeText('Z'.repeat(10_000)));
  await field.focus();
  await page.keyboard.press('Control+V');
  await expect(field).toHaveValue('Z'.repeat(80));
  await expect(page.getByRole('status').filter({ hasText: 'Cut to 80 characters' })).toHaveText('Cut to 80 characters: a name is at most 80 (the paste made 10,000).');
  await page.screenshot({ path: '/tmp/glance-paste.png' });
  // Shortened by the GM, the sentence goes.
  await field.press('Backspace');
  await expect(page.getByText('Cut to 80 characters')).toHaveCount(0);
});

test("a toast never covers the log's newest lines, and goes once its cause is gone", async ({ page, context }) => {
  await prepareFight(page, await gmw.start('toasts.sqlite'), { campaign: 'Nexus Nights', ruleset: 'enigma', pc: 'Berrik', npc: 'Goblin', npcCount: 2, encounter: 'Dock' });
  await page.getByRole('radio', { name: 'Fixed order' }).check();
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await expect(activeName(page)).toHaveText('Berrik');
  // A second tab whose change notices are held back: its next press is refused as behind, with a notice.
  const stale = await context.newPage();
  await stale.route('**/api/changes', (route) => route.abort());
  await stale.goto(page.url());
  await stale.setViewportSize({ width: 1440, height: 900 });
  // The runner is its own chunk, loaded after the page: the second tab must have read the fight before it moves on.
  await expect(activeName(stale)).toHaveText('Berrik');
  await page.bringToFront();
  await page.keyboard.press('n');
  await expect(activeName(page)).toHaveText('Goblin 1');
  await stale.bringToFront();
  await stale.keyboard.press('n');
  const toast = stale.getByRole('status').locator('.toast');
  await expect(toast).toHaveCount(1);
  await stale.screenshot({ path: '/tmp/glance-toast.png' });
  const newest = encounterLog(stale).locator('li').last();
  const [t, l, s] = await Promise.all([toast.boundingBox(), newest.boundingBox(), stale.getByRole('region', { name: 'Log', exact: true }).boundingBox()]);
  const overlaps = (a: NonNullable<typeof t>, b: NonNullable<typeof t>) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  expect(overlaps(t!, s!), 'the toast is not over the log card').toBe(false);
  expect(l!.y + l!.height).toBeLessThanOrEqual(s!.y + s!.height + 1);
  // The GM's next press goes through: the notice about the refused one goes with it, well before its 4 s.
  const shown = Date.now();
  await stale.keyboard.press('n');
  await expect(activeName(stale)).toHaveText('Goblin 2');
  await expect(toast).toHaveCount(0, { timeout: 2000 });
  expect(Date.now() - shown).toBeLessThan(3500);
  await stale.close();
});
