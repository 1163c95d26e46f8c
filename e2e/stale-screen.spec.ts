// Writes from a stale screen, as a GM at the table makes them: a double-click on Start combat and on Next turn,
// two tabs of one browser on one fight, and a condition sent while the press before it is still on its way. Each write carries what its screen showed; the app refuses one the
// fight has moved past, and the page then shows the newest state with a short notice.
import { expect, test, type Page } from '@playwright/test';
import { STALE_SCREEN } from '../core/api/contract.ts';
import { activeName, encounterLog, prepareFight, useServer } from './fixtures.ts';

const gmw = useServer('stale');

const toasts = (page: Page) => page.getByRole('status').locator('.toast > span');
const errorToasts = (page: Page) => page.getByRole('status').locator('.toast.error');

/** A prepared Enigma fight (Berrik against Goblin 1 and 2 in a fixed order), still in prep. */
async function prepared(page: Page, file: string): Promise<void> {
  await prepareFight(page, await gmw.start(file), { campaign: 'The Drowned Vault', ruleset: 'enigma', pc: 'Berrik', npc: 'Goblin', npcCount: 2, encounter: 'Ambush at the ford' });
  await expect(page.getByRole('list', { name: 'GM side' }).getByRole('listitem')).toHaveCount(2);
  await page.getByRole('radio', { name: 'Fixed order' }).check();
  await expect(page.getByRole('button', { name: 'Move Goblin 1 down' })).toBeVisible();
}

/** How many events the encounter has on disk, asked through the page's own API with its token. */
async function storedEvents(page: Page): Promise<number> {
  const id = decodeURIComponent(new URL(page.url()).hash.split('/').pop()!);
  return page.evaluate(async (encounterId) => {
    const response = await fetch('api/encounters:get', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: encounterId }) });
    return ((await response.json()) as { result: { encounter: { eventCount: number } } }).result.encounter.eventCount;
  }, id);
}

test('a double-click on Start combat starts it once and shows the runner; a double-click on Next turn passes one turn', async ({ page }) => {
  await prepared(page, 'double-click.sqlite');
  const beforeStart = await storedEvents(page);
  await page.getByRole('button', { name: 'Start combat ▸' }).dblclick();
  await expect(activeName(page)).toHaveText('Berrik');
  await expect(page.getByTestId('counter-round')).toHaveAccessibleName('Round 1');
  expect(await storedEvents(page)).toBe(beforeStart + 1);
  // No false error from a second start (it used to say that the order of battle is fixed once combat starts).
  await page.waitForTimeout(500);
  await expect(toasts(page)).toHaveCount(0);

  const beforeTurn = await storedEvents(page);
  await page.getByRole('button', { name: 'Next turn' }).dblclick();
  await expect(activeName(page)).toHaveText('Goblin 1');
  // Give a second write every chance to land: Goblin 1's turn is not skipped.
  await page.waitForTimeout(500);
  await expect(activeName(page)).toHaveText('Goblin 1');
  expect(await storedEvents(page)).toBe(beforeTurn + 1);
  // Neither double-click said anything: no error, no notice.
  await expect(toasts(page)).toHaveCount(0);
});

test('two tabs on one fight: N in both passes one turn, and an undo from the stale tab keeps the other tab\'s event', async ({ page, context }) => {
  await prepared(page, 'two-tabs.sqlite');
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await expect(activeName(page)).toHaveText('Berrik');

  // The second tab shows the same turn. Its change notices are held back, so it stays as it was drawn: a tab
  // whose notice has not arrived yet when the GM presses there.
  const stale = await context.newPage();
  await stale.route('**/api/changes', (route) => route.abort());
  await stale.goto(page.url());
  await expect(activeName(stale)).toHaveText('Berrik');
  const before = await storedEvents(page);

  await page.bringToFront();
  await page.keyboard.press('n');
  await expect(activeName(page)).toHaveText('Goblin 1');
  await stale.bringToFront();
  await expect(activeName(stale)).toHaveText('Berrik');
  await stale.keyboard.press('n');
  // Refused: the stale tab now shows the newest state, with the calm notice (not an error).
  await expect(activeName(stale)).toHaveText('Goblin 1');
  await expect(toasts(stale)).toHaveText([STALE_SCREEN]);
  await expect(errorToasts(stale)).toHaveCount(0);
  expect(await storedEvents(page)).toBe(before + 1);
  await page.reload();
  await expect(activeName(page)).toHaveText('Goblin 1');

  // The first tab deals damage; the second, stale again, presses Ctrl+Z: refused, the damage stays.
  await expect(toasts(stale)).toHaveCount(0, { timeout: 10_000 });
  await page.bringToFront();
  await page.getByRole('button', { name: 'Damage or heal Goblin 2' }).click();
  await page.getByRole('spinbutton', { name: 'Amount' }).fill('2');
  await page.getByRole('button', { name: 'Apply damage' }).click();
  await expect(encounterLog(page).getByText(/^Goblin 2 takes 2 damage/)).toBeVisible();
  await stale.bringToFront();
  await expect(encounterLog(stale).getByText(/^Goblin 2 takes 2 damage/)).toHaveCount(0);
  await stale.keyboard.press('Control+z');
  await expect(encounterLog(stale).getByText(/^Goblin 2 takes 2 damage/)).toBeVisible();
  await expect(toasts(stale)).toHaveText([STALE_SCREEN]);
  expect(await storedEvents(page)).toBe(before + 2);
  await page.reload();
  await expect(encounterLog(page).getByText(/^Goblin 2 takes 2 damage/)).toBeVisible();
  await expect(activeName(page)).toHaveText('Goblin 1');
  await stale.close();
});

test('a condition sent while the Next turn before it is still on its way is written after it, not refused', async ({ page }) => {
  await prepared(page, 'pressed-on.sqlite');
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await expect(activeName(page)).toHaveText('Berrik');
  // The app's replies held back until let go, as on a loaded machine: the condition is typed and sent before N's
  // reply comes.
  let held: (string | Buffer)[] | null = null;
  let letGo = () => {};
  await page.routeWebSocket(/.*/, (socket) => {
    const app = socket.connectToServer();
    socket.onMessage((message) => app.send(message));
    app.onMessage((message) => (held ? held.push(message) : socket.send(message)));
    letGo = () => {
      for (const message of held ?? []) socket.send(message);
      held = null;
    };
  });
  await page.reload();
  await expect(activeName(page)).toHaveText('Berrik');
  const before = await storedEvents(page);
  held = [];
  await page.keyboard.press('n');
  await page.keyboard.press('x');
  const conditions = page.getByRole('form', { name: 'Add condition form' });
  await conditions.getByRole('checkbox').last().check();
  await conditions.getByRole('combobox', { name: 'Condition' }).fill('Stunned');
  await page.keyboard.press('Enter');
  // N is written, its reply not yet shown; the condition waits for it to leave (a page's writes go in order).
  await expect.poll(() => storedEvents(page)).toBe(before + 1);
  await expect(activeName(page)).toHaveText('Berrik');
  letGo();
  await expect(encounterLog(page).getByText(/puts Stunned on Goblin 2/)).toBeVisible();
  await expect(activeName(page)).toHaveText('Goblin 1');
  await expect(toasts(page)).toHaveCount(0);
  expect(await storedEvents(page)).toBe(before + 2);
});
