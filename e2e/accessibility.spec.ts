// Every screen of every ruleset, in both themes, through axe-core (e2e/a11y.ts): no serious or critical violation.
// The demo campaigns give each ruleset a party, NPC templates, a finished fight with its log, recovery and a
// timeline; a new encounter in each is prepared and started, so the runner is checked with a live fight, an action
// form open. Focus stays visible: the focused control draws an outline or a ring. Each screen is also checked to fit
// at 1280×800, 1920×1080 and 720×450 (200 % zoom): e2e/layout.ts.
import { expect, test, type Page } from '@playwright/test';
import { useServer } from './fixtures.ts';
import { expectAccessible, seriousViolations } from './a11y.ts';
import { expectFitsAtEverySize, layoutFindings, SIZES } from './layout.ts';

const gmw = useServer('accessibility');
const THEMES = ['dark', 'light'] as const;
const RULESETS = ['Enigma', 'Teams', 'Factions', 'Cairn-Errant', 'Thrum', 'Any system'] as const;
/** GMW_A11Y_SURVEY=1 lists every finding of every screen instead of failing at the first (to fix them in one go). */
const SURVEY = process.env['GMW_A11Y_SURVEY'] === '1';
const found: string[] = [];

/**
 * Checks the screen as it is in the dark theme (every rule), then in the light theme (the rules a theme changes:
 * colour contrast), and puts the dark theme back: one visit to each screen covers both.
 */
async function check(page: Page, screen: string): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => {});
  for (const theme of THEMES) {
    await page.evaluate((chosen) => (document.documentElement.dataset['theme'] = chosen), theme);
    const at = `${theme} ${screen}`;
    const rules = theme === 'dark' ? undefined : ['color-contrast'];
    if (!SURVEY) await expectAccessible(page, at, rules);
    else for (const line of await seriousViolations(page, rules)) found.push(`${at}: ${line}`);
  }
  await page.evaluate(() => (document.documentElement.dataset['theme'] = 'dark'));
  // The same visit checks the layout at the three sizes a GM uses.
  if (!SURVEY) await expectFitsAtEverySize(page, screen);
  else {
    const before = page.viewportSize();
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      for (const line of await layoutFindings(page)) found.push(`${size.label} ${screen}: ${line}`);
    }
    if (before) await page.setViewportSize(before);
  }
}

/** The focused element draws a visible outline or box-shadow ring. */
async function expectFocusVisible(page: Page, screen: string): Promise<void> {
  const ring = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'nothing focused';
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1;
    const shadow = style.boxShadow !== 'none';
    return outline || shadow ? 'ring' : `no ring on ${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? ''}`;
  });
  expect(ring, `${screen}: the focused control shows where focus is`).toBe('ring');
}

let launchUrl = '';

// Ten screens and their scans per test, on a machine shared with other work.
test.setTimeout(240_000);

test.beforeAll(async ({ browser }) => {
  const server = await gmw.start('accessibility.sqlite');
  launchUrl = server.launchUrl;
  const page = await browser.newPage();
  await page.goto(launchUrl);
  await page.getByRole('button', { name: 'Load the demo campaigns' }).click();
  await expect(page.getByRole('link', { name: /^Demo — Thrum/ })).toBeVisible();
  await page.close();
});

test.afterAll(() => {
  if (SURVEY) console.log(`\n${found.length} findings\n${found.join('\n')}`);
});

test('the campaign list and backups', async ({ page }) => {
  await page.goto(launchUrl);
  await expect(page.getByRole('heading', { name: 'Campaigns' })).toBeVisible();
  await check(page, 'campaign list');
  await page.keyboard.press('Tab');
  await expectFocusVisible(page, 'campaign list');
  await page.getByRole('link', { name: 'Backups' }).click();
  await expect(page.getByRole('heading', { name: /Backups/ })).toBeVisible();
  await check(page, 'backups');
});

for (const ruleset of RULESETS) {
  test(`every ${ruleset} screen`, async ({ page }) => {
    const at = (screen: string) => `${ruleset} ${screen}`;
    await page.goto(launchUrl);
    await page.getByRole('link', { name: new RegExp(`^Demo — ${ruleset}`) }).click();
    await expect(page.getByRole('heading', { level: 1, name: new RegExp(`^Demo — ${ruleset}`) })).toBeVisible();
    const home = page.url();
    await check(page, at('campaign home'));

    await page.getByRole('region', { name: 'Party' }).locator('.member a').first().click();
    await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
    await check(page, at('character editor'));
    await page.goto(home);
    await page.getByRole('link', { name: /'s history$/ }).first().click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await check(page, at('character history'));

    await page.goto(home);
    await page.getByRole('link', { name: 'Log', exact: true }).first().click();
    await expect(page.getByRole('list', { name: /log/i }).first()).toBeVisible();
    await check(page, at('encounter log'));
    await page.getByRole('searchbox').or(page.getByRole('textbox', { name: /search/i })).first().fill('a');
    await check(page, at('encounter log, searched'));

    await page.goto(home);
    const recovery = page.getByRole('link', { name: 'Recovery', exact: true });
    if (await recovery.count()) {
      await recovery.click();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await check(page, at('recovery'));
      await page.goto(home);
    }
    await page.getByRole('link', { name: 'Timeline', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await check(page, at('timeline'));

    // A new fight: prepare it with the whole party and one NPC template, check the prep screen, then start it.
    await page.goto(home);
    await page.getByRole('textbox', { name: 'Encounter name' }).fill('Checked by axe');
    await page.getByRole('button', { name: 'Prepare encounter' }).click();
    await page.getByRole('button', { name: 'Add the whole party' }).click();
    await page.locator('section', { has: page.getByRole('heading', { name: 'NPC templates' }) }).getByRole('button', { name: /^Add / }).first().click();
    await expect(page.getByRole('button', { name: 'Start combat ▸' })).toBeEnabled();
    await check(page, at('encounter prep'));
    await page.getByRole('button', { name: 'Start combat ▸' }).click();
    await expect(page.getByRole('list', { name: 'Encounter log' })).toBeVisible();
    await check(page, at('runner'));
    await page.keyboard.press('Tab');
    await expectFocusVisible(page, at('runner'));
    // The first action form the runner offers, open.
    const action = page.getByRole('region', { name: /actions/i }).getByRole('button').first();
    if (await action.count()) {
      await action.click();
      await check(page, at('runner, a form open'));
    }
  });
}
