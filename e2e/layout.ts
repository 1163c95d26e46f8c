// The layout check every screen passes at the sizes a GM uses (issue 28, point 2): at 1280×800, 1920×1080 and
// 720×450 (a 1440×900 window at 200 % zoom) nothing reaches past the window's right edge, and no short label (a
// button, a link, a heading, a name, a table cell of at most 20 characters) is squeezed to a letter or two per line.
import { expect, type Page } from '@playwright/test';

export const SIZES = [
  { width: 1280, height: 800, label: '1280x800' },
  { width: 1920, height: 1080, label: '1920x1080' },
  { width: 720, height: 450, label: '720x450 (200 %)' },
] as const;

/** What does not fit on the page as it is now, one line each. */
export async function layoutFindings(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && !el.closest('.visually-hidden, [hidden], dialog:not([open])');
    };
    const what = (el: Element) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 30)}"`;
    if (document.documentElement.scrollWidth > window.innerWidth + 1) found.push(`the page scrolls sideways (${document.documentElement.scrollWidth} px wide)`);
    for (const el of document.querySelectorAll('h1, h2, h3, button, a, label, td, th, summary, .name')) {
      if (!shown(el)) continue;
      const r = el.getBoundingClientRect();
      // Inside a scrolling box it may go past the window: the box scrolls, the page does not.
      let clipped = false;
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const overflow = getComputedStyle(up).overflowX;
        if (overflow === 'auto' || overflow === 'scroll' || overflow === 'hidden') { clipped = true; break; }
      }
      if (!clipped && r.right > window.innerWidth + 1) found.push(`${what(el)} reaches ${Math.round(r.right)} px`);
      const text = (el.textContent ?? '').trim();
      // A label wrapping its own field stacks them by design; its text alone is what could be squeezed.
      if (!text || text.length > 20 || el.querySelector('input, select, textarea')) continue;
      // The lines its text takes (a table cell is as tall as its row: its text is what counts).
      // Boxes of its text, top to bottom; a box that does not overlap the line above starts a new line (a badge in a
      // heading sits on the heading's line, a little lower).
      const boxes: DOMRect[] = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        boxes.push(...[...range.getClientRects()].filter((box) => box.width > 0));
      }
      boxes.sort((a, b) => a.top - b.top);
      let lines = 0;
      let bottom = -Infinity;
      for (const box of boxes) {
        if (box.top >= bottom - 2) {
          lines += 1;
          bottom = box.bottom;
        } else bottom = Math.max(bottom, box.bottom);
      }
      if (lines >= 3) found.push(`${what(el)} squeezed to ${lines} lines in ${Math.round(r.width)} px`);
    }
    return [...new Set(found)];
  });
}

/** Fails, naming the screen and the size, when something does not fit (see layoutFindings). */
export async function expectFits(page: Page, screen: string): Promise<void> {
  const viewport = page.viewportSize();
  expect(await layoutFindings(page), `${screen} at ${viewport?.width}×${viewport?.height}: what does not fit`).toEqual([]);
}

/** Checks the screen at every size in SIZES and puts the window back as it was. */
export async function expectFitsAtEverySize(page: Page, screen: string): Promise<void> {
  const before = page.viewportSize();
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await expectFits(page, screen);
  }
  if (before) await page.setViewportSize(before);
}
