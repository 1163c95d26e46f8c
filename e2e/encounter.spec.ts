// The foundation flow end to end in Chromium against the real server and a real database file:
// create an Enigma campaign, add two PCs and three NPCs, run two rounds with one removal and one undo,
// stop and restart the server, and find the encounter at the same turn.
import { expect, test, type Page } from '@playwright/test';
import { useServer } from './fixtures.ts';
import { expectAccessible } from './a11y.ts';

const gmw = useServer('encounter');

async function createCharacter(page: Page, button: string, name: string, endure?: string) {
  await page.getByRole('link', { name: button }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  if (endure) await page.getByRole('combobox', { name: 'Endure' }).selectOption(endure);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
}

const activeName = (page: Page) => page.getByTestId('active-name');

test('create, prepare, run two rounds with a removal and an undo, restart, resume', async ({ page }) => {
  let server = await gmw.start('campaign.sqlite');
  // Calls go over the page's one socket (web mode's fast path), not one HTTP request each; only the page's first
  // calls, made while the socket opens, go over HTTP rather than wait for it.
  const posted: string[] = [];
  const framed: string[] = [];
  page.on('request', (request) => request.method() === 'POST' && posted.push(new URL(request.url()).pathname));
  page.on('websocket', (socket) => socket.on('framesent', (frame) => framed.push(String(frame.payload))));
  await page.goto(server.launchUrl);
  await expect(page.getByRole('heading', { name: 'Campaigns' })).toBeVisible();
  await expectAccessible(page, 'campaign list');

  // The name field states its limit and keeps to it; bad input gets a sentence, and nothing is created.
  await page.getByRole('textbox', { name: 'Campaign name' }).fill('x'.repeat(10_000));
  await expect(page.getByRole('textbox', { name: 'Campaign name' })).toHaveValue('x'.repeat(80));
  await expect(page.getByText('80/80')).toBeVisible();
  await page.getByRole('textbox', { name: 'Campaign name' }).fill('   ');
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await expect(page.getByText('A name cannot be empty.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Campaigns' }).getByRole('link')).toHaveCount(0);
  await page.getByRole('button', { name: 'Dismiss message' }).click();

  await page.getByRole('textbox', { name: 'Campaign name' }).fill('The Drowned Vault');
  await page.getByRole('combobox', { name: 'Ruleset' }).selectOption('enigma');
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await expect(page.getByRole('heading', { name: 'The Drowned Vault' })).toBeVisible();

  await expectAccessible(page, 'campaign home');
  await page.getByRole('link', { name: '+ Party member' }).click();
  await expectAccessible(page, 'character editor');
  await page.getByRole('link', { name: 'Cancel' }).click();
  await createCharacter(page, '+ Party member', 'Berrik', '10');
  await createCharacter(page, '+ Party member', 'Lotty');
  await createCharacter(page, '+ NPC template', 'Goblin', '6');

  await page.getByRole('textbox', { name: 'Encounter name' }).fill('Ambush at the ford');
  await page.getByRole('button', { name: 'Prepare encounter' }).click();
  await expect(page.getByRole('heading', { name: 'Prepare: Ambush at the ford' })).toBeVisible();

  await page.getByRole('button', { name: 'Add the whole party' }).click();
  await page.getByRole('spinbutton', { name: 'How many Goblin' }).fill('3');
  await page.getByRole('button', { name: 'Add Goblin' }).click();
  await expect(page.getByRole('list', { name: 'GM side' }).getByText('Goblin 3', { exact: true })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Party order' }).getByRole('listitem')).toHaveCount(2);
  await page.getByRole('radio', { name: 'Fixed order' }).check();
  await expectAccessible(page, 'encounter prep');
  await page.getByRole('button', { name: 'Start combat ▸' }).click();

  // Round 1: Berrik, Goblin 1, Lotty, Goblin 2, Goblin 3 (the GM side runs on).
  await expect(activeName(page)).toHaveText('Berrik');
  await expect(page.getByTestId('counter-round')).toHaveAccessibleName('Round 1');
  await expect(page.getByTestId('counter-escalation')).toHaveAccessibleName('Escalation 1');
  /** Checks who is acting, then ends that turn with the keyboard shortcut. */
  const endTurnOf = async (name: string) => {
    await expect(activeName(page)).toHaveText(name);
    await page.keyboard.press('n');
  };
  await endTurnOf('Berrik');
  await endTurnOf('Goblin 1');
  await endTurnOf('Lotty');
  // Goblin 2 is removed during its own turn: the turn passes to Goblin 3.
  await expect(activeName(page)).toHaveText('Goblin 2');
  await page.getByRole('button', { name: 'Remove Goblin 2 from the fight' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await endTurnOf('Goblin 3');

  // Round 2 replays the frozen order without Goblin 2; Escalation rises.
  await expect(page.getByTestId('counter-round')).toHaveAccessibleName('Round 2');
  await expect(page.getByTestId('counter-escalation')).toHaveAccessibleName('Escalation 2');
  await endTurnOf('Berrik');
  await endTurnOf('Goblin 1');
  await expect(activeName(page)).toHaveText('Lotty');
  // One undo (Ctrl+Z): back to Goblin 1's turn; redo is offered.
  await page.keyboard.press('Control+z');
  await expect(activeName(page)).toHaveText('Goblin 1');
  await expect(page.getByRole('button', { name: 'Redo: End turn' })).toBeEnabled();
  await endTurnOf('Goblin 1');
  await endTurnOf('Lotty');
  await expect(activeName(page)).toHaveText('Goblin 3');
  await expect(page.getByRole('button', { name: 'Redo: End turn' })).toHaveCount(0);
  await expect(page.getByText('Goblin 2 left the order of battle (defeated); everyone after slides up.')).toBeVisible();
  await expectAccessible(page, 'encounter runner');
  await page.screenshot({ path: 'e2e/screenshots/encounter-runner.png' });
  expect(framed.filter((frame) => frame.includes('"name":"encounters:append"')).length).toBeGreaterThanOrEqual(10);
  expect(framed.filter((frame) => frame.includes('"name":"encounters:undo"'))).toHaveLength(1);
  // The page's first three calls went over HTTP; none of the fight's (a loaded machine may open the socket late
  // enough for the campaign's first writes to go over HTTP too, which is right: no call waits for it).
  expect(posted.slice(0, 3).sort()).toEqual(['/api/app:info', '/api/campaigns:list', '/api/recovery:status']);
  expect(posted.filter((path) => path.startsWith('/api/encounters:'))).toEqual([]);

  // Stop and restart the server: the encounter is at the same turn.
  const encounterHash = new URL(page.url()).hash;
  await server.stop();
  server = await gmw.start('campaign.sqlite');
  await page.goto(server.launchUrl);
  await page.getByRole('link', { name: 'The Drowned Vault' }).click();
  await page.getByRole('link', { name: 'Ambush at the ford', exact: true }).click();
  expect(new URL(page.url()).hash).toBe(encounterHash);
  await expect(activeName(page)).toHaveText('Goblin 3');
  await expect(page.getByTestId('counter-round')).toHaveAccessibleName('Round 2');
  await expect(page.getByTestId('counter-escalation')).toHaveAccessibleName('Escalation 2');
  await page.keyboard.press('n');
  await expect(page.getByTestId('counter-round')).toHaveAccessibleName('Round 3');
  await expect(activeName(page)).toHaveText('Berrik');
});
