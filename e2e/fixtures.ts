// What the specs share: a web-mode server on a temporary database per spec file, the usual way to prepare a fight
// through the UI, and the locators every runner spec reads.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from './server.ts';

/** Registers a temporary folder for the spec file; `start(file)` launches web mode on a database in it. */
export function useServer(label: string) {
  let dir = '';
  const servers: RunningServer[] = [];
  test.beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), `gmw-e2e-${label}-`));
  });
  test.afterAll(async () => {
    // Every server the spec file started, not only the last: a spec with several databases starts several.
    await Promise.all(servers.splice(0).map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    async start(file: string): Promise<RunningServer> {
      const server = await startServer(join(dir, file));
      servers.push(server);
      return server;
    },
  };
}

export interface FightPlan {
  campaign: string;
  ruleset: string;
  pc: string;
  npc: string;
  npcCount?: number;
  encounter: string;
}

/** Opens the app, creates the campaign, one party member and one NPC template, and prepares the encounter. */
export async function prepareFight(page: Page, server: RunningServer, plan: FightPlan): Promise<void> {
  await page.goto(server.launchUrl);
  await page.getByRole('textbox', { name: 'Campaign name' }).fill(plan.campaign);
  await page.getByRole('combobox', { name: 'Ruleset' }).selectOption(plan.ruleset);
  await page.getByRole('button', { name: 'Create campaign' }).click();
  for (const [link, name] of [['+ Party member', plan.pc], ['+ NPC template', plan.npc]] as const) {
    await page.getByRole('link', { name: link }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await page.getByRole('button', { name: 'Save' }).click();
  }
  await page.getByRole('textbox', { name: 'Encounter name' }).fill(plan.encounter);
  await page.getByRole('button', { name: 'Prepare encounter' }).click();
  await page.getByRole('button', { name: `Add ${plan.pc}` }).click();
  if (plan.npcCount && plan.npcCount !== 1) await page.getByRole('spinbutton', { name: `How many ${plan.npc}` }).fill(String(plan.npcCount));
  await page.getByRole('button', { name: `Add ${plan.npc}` }).click();
  // Shown before the caller goes on: its next step reads the screen this write draws (the rows, the Start button).
  await expect(page.getByRole('button', { name: new RegExp(`^Undo: Added\\b.*${plan.npc}`) })).toBeVisible();
}

export const activeName = (page: Page) => page.getByTestId('active-name');
export const encounterLog = (page: Page) => page.getByRole('list', { name: 'Encounter log' });

/**
 * Answers the prompt on screen with the button named `choice`, and returns once the answer is shown (the log has a
 * line more: for fights whose runner log is not yet at its cap). A prompt's answers are disabled while a write is on
 * its way, so a second prompt whose button bears the same name ("Send Party", twice) is not pressed on the first one;
 * this wait also holds a spec that presses something else next (Next turn, a form's send), which do not wait.
 */
export async function answerPrompt(page: Page, choice: string | RegExp): Promise<void> {
  const lines = encounterLog(page).getByRole('listitem');
  const before = await lines.count();
  await page.getByRole('button', { name: choice }).click();
  await expect.poll(() => lines.count()).toBeGreaterThan(before);
}

/**
 * Thrum's initiative: each one's 2d6 sent from the prompt, then any tie the rules cannot break answered with its first
 * choice (R-H1), until Round Zero. Two of one template share a modifier and roll the same total about one time in nine.
 */
export async function rollThrumInitiative(page: Page, names: string[]): Promise<void> {
  for (const name of names) await page.getByRole('button', { name: new RegExp(`^Send ${name} \\(2d6`) }).click();
  const stage = page.getByTestId('counter-stage');
  const tie = page.getByRole('heading', { name: /^Initiative tie/ });
  for (let asked = 0; asked < names.length; asked += 1) {
    await expect(stage.filter({ hasText: 'Round Zero' }).or(tie)).toBeVisible();
    if (!(await tie.isVisible())) break;
    const choices = page.getByTestId('prompt').getByRole('button');
    const count = await choices.count();
    await choices.first().click();
    await expect(choices).not.toHaveCount(count);
  }
  await expect(stage).toContainText('Round Zero');
}

/** The contested roll typed from physical dice (R-H11): the attack's sixes against the defence's ones, a failure. */
export async function contestTyped(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: /^Send Roll 2d6/ })).toBeVisible();
  await page.keyboard.press('r');
  const contest = page.getByRole('form', { name: 'Contested roll form' });
  await contest.getByRole('radio', { name: 'I rolled physical dice' }).check();
  await contest.getByRole('textbox', { name: /attack roll.*faces/ }).fill('6 6');
  await contest.getByRole('textbox', { name: /Resilience roll.*faces/ }).fill('1 1');
  await contest.getByRole('button', { name: 'Contested roll', exact: true }).click();
}

/** Picks a combatant in a runner form's list by name: each option carries its number key first ("[2] Thug 1"). */
export async function chooseCombatant(list: Locator, name: string): Promise<void> {
  const labels = await list.locator('option').allTextContents();
  const label = labels.map((text) => text.trim()).find((text) => text.replace(/^\[\d+\] /, '') === name);
  if (!label) throw new Error(`No option ${name} among ${labels.join(', ')}`);
  await list.selectOption({ label });
}

/** The app's API as a script calls it (with the GM's token), to build a campaign quickly before the GM's steps. */
export function apiOf(request: import('@playwright/test').APIRequestContext, server: RunningServer) {
  const token = new URL(server.launchUrl).searchParams.get('token')!;
  return async <T = Record<string, unknown>>(name: string, input: unknown): Promise<T> => {
    const response = await request.post(`${server.origin}/api/${name}`, { headers: { Authorization: `Bearer ${token}` }, data: input });
    const body = (await response.json()) as { result?: T; error?: { message: string } };
    expect(body.error?.message, name).toBeUndefined();
    return body.result as T;
  };
}
