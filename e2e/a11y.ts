// The accessibility check every spec uses: axe-core, the engine the field's tools run (Lighthouse, the browsers'
// accessibility panels), over the WCAG 2.1 A and AA rules. A screen passes with no serious or critical violation:
// contrast, names, roles, labels, focus order. Minor and moderate findings are reported by axe but not failed on.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The serious and critical violations on the page as it is now (of `rules` only, if given), one line each. */
export async function seriousViolations(page: Page, rules?: string[]): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  const results = await (rules ? builder.withRules(rules) : builder.withTags(TAGS)).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => {
      const where = violation.nodes.slice(0, 4).map((node) => `${node.target.join(' ')}${node.failureSummary ? ` (${node.failureSummary.split('\n').slice(1, 2).join('').trim()})` : ''}`);
      return `${violation.id} [${violation.impact}] ${violation.help}: ${where.join(' | ')}${violation.nodes.length > 4 ? ` … ${violation.nodes.length} in all` : ''}`;
    });
}

/** Fails the test, naming the screen, when axe finds a serious or critical violation on it. */
export async function expectAccessible(page: Page, screen: string, rules?: string[]): Promise<void> {
  expect(await seriousViolations(page, rules), `${screen}: axe-core's serious and critical violations`).toEqual([]);
}
