// The README's screenshots, taken from the built app in web mode on a fresh database with the demo campaigns:
// `node scripts/build.mjs && node scripts/screenshots.mjs` writes docs/images/*.png. Each ruleset's runner is shown
// with a fight started from its demo campaign (the whole party and one NPC template) and a first step played.
// `--only <ruleset>` (repeatable) retakes only those rulesets' pictures.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumPath } from './chromium.mjs';

const root = join(import.meta.dirname, '..');
const images = join(root, 'docs/images');
const dir = mkdtempSync(join(tmpdir(), 'gmw-screenshots-'));
const server = spawn(process.execPath, [join(root, 'scripts/start.mjs'), '--web', '--db', join(dir, 'screens.sqlite')], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GMW_DB: '' } });
const launchUrl = await new Promise((resolve, reject) => {
  let output = '';
  const read = (chunk) => {
    output += chunk;
    const match = output.match(/http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/);
    if (match) resolve(match[0]);
  };
  server.stdout.on('data', read);
  server.stderr.on('data', read);
  server.once('exit', (code) => reject(new Error(`web mode exited with ${code}:\n${output}`)));
});

const browser = await chromium.launch({ executablePath: chromiumPath() ?? undefined, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
  await page.goto(launchUrl);
  await page.getByRole('button', { name: 'Load the demo campaigns' }).click();
  await page.getByRole('link', { name: /^Demo — Thrum/ }).waitFor();

  const only = process.argv.flatMap((arg, i) => (arg === '--only' ? [process.argv[i + 1]] : []));
  for (const ruleset of ['Enigma', 'Teams', 'Factions', 'Cairn-Errant', 'Thrum', 'Any system'].filter((r) => only.length === 0 || only.includes(r))) {
    const slug = ruleset.toLowerCase().replace(/ /g, '-');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(launchUrl);
    await page.getByRole('link', { name: new RegExp(`^Demo — ${ruleset}`) }).click();
    await page.getByRole('textbox', { name: 'Encounter name' }).waitFor();
    const home = page.url();
    await page.getByRole('textbox', { name: 'Encounter name' }).fill('At the ford');
    await page.getByRole('button', { name: 'Prepare encounter' }).click();
    await page.getByRole('button', { name: 'Add the whole party' }).click();
    const npcs = page.locator('section', { has: page.getByRole('heading', { name: 'NPC templates' }) });
    await npcs.getByRole('spinbutton').first().fill('2');
    await npcs.getByRole('button', { name: /^Add / }).first().click();
    await page.getByRole('button', { name: 'Start combat ▸' }).click();
    await page.getByRole('list', { name: 'Encounter log' }).waitFor();
    // A first step: the prompt's first choice where the fight opens with one, then a condition on the first enemy.
    for (let i = 0; i < 8; i += 1) {
      const choice = page.getByRole('button', { name: /^Send / }).first();
      if (!(await choice.isVisible().catch(() => false))) break;
      await choice.click();
      await page.waitForTimeout(300);
    }
    if (ruleset === 'Any system') {
      // Initiative: the GM side rolled at once, each of the party by I and Enter; round 1 begun; a goblin hit.
      await page.getByRole('button', { name: 'Roll for everyone outside the party' }).click();
      await page.getByRole('button', { name: 'Roll for everyone outside the party' }).last().click();
      await page.waitForTimeout(300);
      for (let i = 0; i < 8; i += 1) {
        await page.keyboard.press('i');
        const who = page.getByRole('combobox', { name: 'Who' });
        if (!(await who.isVisible({ timeout: 1000 }).catch(() => false))) break;
        await page.keyboard.press('Enter');
        await who.waitFor({ state: 'detached' });
      }
      await page.keyboard.press('b');
      await page.keyboard.press('Enter');
      await page.getByTestId('counter-round').filter({ hasText: '1' }).waitFor();
      await page.keyboard.press('d');
      const target = page.getByRole('combobox', { name: 'Target' });
      const foe = (await target.locator('option').allTextContents()).find((text) => /Goblin/.test(text));
      await target.selectOption({ label: foe });
      await page.getByRole('spinbutton', { name: 'Damage' }).fill('5');
      await page.getByRole('spinbutton', { name: 'Damage' }).press('Enter');
      await page.waitForTimeout(500);
    }
    if (ruleset === 'Enigma') {
      // Berrik ends his turn; at the GM's slot the first goblin is picked by its number.
      await page.keyboard.press('n');
      await page.waitForTimeout(300);
      await page.keyboard.press('1');
      await page.waitForTimeout(1000);
    }
    await page.keyboard.press('x');
    const form = page.getByRole('form', { name: /condition/i });
    if (await form.isVisible().catch(() => false)) {
      await form.getByRole('checkbox').last().check();
      await form.getByRole('combobox', { name: 'Condition' }).fill(ruleset === 'Thrum' ? 'Dazed' : 'Stunned');
      await page.keyboard.press('Enter');
      await page.waitForTimeout(300);
    }
    await page.mouse.move(0, 0);
    if (ruleset !== 'Enigma') await page.screenshot({ path: join(images, `runner-${slug}.png`) });
    if (ruleset === 'Enigma') {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.screenshot({ path: join(images, 'encounter-runner.png') });
      await page.keyboard.press('?');
      await page.getByRole('dialog').waitFor();
      await page.screenshot({ path: join(images, 'shortcut-sheet.png') });
      await page.keyboard.press('Escape');
    }
    if (ruleset === 'Cairn-Errant') {
      await page.goto(home);
      await page.getByRole('link', { name: 'Recovery', exact: true }).click();
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.screenshot({ path: join(images, 'recovery.png') });
    }
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((done) => server.once('exit', done));
  rmSync(dir, { recursive: true, force: true });
}
