// What runs in the page: the keydown → painted-frame clock, the frame clock used while scrolling, and the helpers
// that time one key, settle the page and read its heap.


/**
 * Installed before any page script: the keydown → painted-frame clock, the long-task log and the frame clock used
 * while scrolling.
 *
 * The clock starts at the keydown event's own timestamp (when the browser took the key, so a main thread still busy
 * with something else counts), read by a capture-phase listener on window added before the app's own. It stops at
 * the frame that paints the result: a MutationObserver notes the first mutation after which the screen shows it
 * (`until`), asks for an animation frame, and from inside that frame's callback posts a message to itself. The
 * rendering steps of a frame (style, layout, paint, commit to the compositor) run in the same task right after its
 * animation-frame callbacks, so the message is handled as soon as that frame has been painted on the main thread:
 * its `performance.now()` is the figure. (A double requestAnimationFrame would wait a whole frame more; a
 * setTimeout may be clamped.) What is left after it — raster and display on the compositor — is the browser's own
 * and the same for the baseline page. The first-mutation time is kept beside it.
 */
export function installProbe() {
  const q = (selector) => document.querySelector(selector);
  const strip = () => `${q('[data-testid="counter-round"]')?.textContent}|${(q('.strip .now') ?? q('[data-testid="active-name"]'))?.textContent}`;
  /**
   * A runner row by the name its accessible label starts with ("12. Goblin 3, GM, Waiting"): its pool's text. The
   * row found is kept for the press (`rows`, emptied when a key is armed) while it stays in the page: the check runs
   * on every mutation inside the timed frame, and reading every row's label there was the probe's own cost.
   */
  const rows = new Map();
  const findRow = (name) => [...document.querySelectorAll('li[aria-label]')].find((li) => li.getAttribute('aria-label').replace(/^\d+\. /, '').split(', ')[0] === name);
  const rowOf = (name) => {
    const kept = rows.get(name);
    if (kept?.isConnected) return kept;
    const row = findRow(name);
    rows.set(name, row);
    return row;
  };
  const hpOf = (name) => rowOf(name)?.querySelector('[data-state], .hp')?.textContent ?? null;
  const promptShown = () => Boolean(q('[role="alertdialog"], [data-testid="prompt"]'));
  // What "the screen shows the result" means for each key; named here because the app's CSP forbids eval. A key's
  // condition is a list of these, all of which must hold.
  const conditions = {
    stripChanged: (before) => strip() !== before,
    hpIs: ({ name, value }) => hpOf(name) === value,
    hpChanged: ({ name, before }) => hpOf(name) !== before,
    prompt: (shown) => promptShown() === shown,
    rowsChanged: (before) => q('ol').textContent !== before,
  };
  const bench = { armed: false, label: '', t0: null, tListener: null, t1: null, t2: null, until: null, longTasks: [], listShownAt: null, frames: null, strip, hpOf, promptShown, conditions, rows };
  Object.defineProperty(window, '__bench', { value: bench });
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    bench.t2 = performance.now();
    performance.mark(`bench-painted ${bench.label}`);
  };
  // The clock starts at the key that acts: for Ctrl+Z that is the Z, not the Control pressed before it (which does
  // nothing on its own; Playwright leaves about a millisecond between the two).
  const MODIFIERS = new Set(['Control', 'Shift', 'Alt', 'Meta']);
  addEventListener('keydown', (event) => {
    if (!bench.armed || bench.t0 !== null || MODIFIERS.has(event.key)) return;
    bench.tListener = performance.now();
    bench.t0 = Math.min(event.timeStamp, bench.tListener);
    performance.mark(`bench-key ${bench.label}`);
  }, true);
  new MutationObserver(() => {
    const now = performance.now();
    if (bench.listShownAt === null && q('ul[aria-label="Campaigns"] li')) bench.listShownAt = now;
    if (bench.t0 !== null && bench.t1 === null && bench.until?.()) {
      bench.t1 = now;
      requestAnimationFrame(() => channel.port2.postMessage(null));
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    bench.longTasks = null;
  }
  /** Every animation frame's timestamp from now until `stopFrames`: the gaps between them are the frames dropped. */
  bench.startFrames = () => {
    bench.frames = [];
    const tick = (time) => {
      if (!bench.frames) return;
      bench.frames.push(time);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  };
  bench.stopFrames = () => {
    const frames = bench.frames ?? [];
    bench.frames = null;
    return frames.slice(1).map((time, i) => time - frames[i]);
  };
}

/**
 * Times one key press: `until` (conditions the probe knows, run in the page) says when the screen shows the result.
 * Returns milliseconds from the keydown to the painted frame (`painted`), to the first mutation showing the result
 * (`mutation`), and the keydown's wait before the page's first listener ran (`input`).
 */
/** Called around each timed key (the CPU profile starts before the key and stops at its painted frame). */
export const keyHooks = { before: null, after: null };

export async function timeKey(page, until, press, label = '') {
  await keyHooks.before?.();
  await page.evaluate(([conditions, label]) => {
    const bench = window.__bench;
    bench.until = () => conditions.every(([name, value]) => bench.conditions[name](value));
    // The rows the conditions read are found now, before the key, not inside its frame.
    bench.rows.clear();
    bench.until();
    Object.assign(bench, { label, t0: null, tListener: null, t1: null, t2: null, armed: true });
  }, [until, label]);
  await press();
  await page.waitForFunction(() => window.__bench.t2 !== null, null, { timeout: 30_000, polling: 20 });
  await keyHooks.after?.();
  return page.evaluate(() => {
    const bench = window.__bench;
    bench.armed = false;
    return { painted: bench.t2 - bench.t0, mutation: bench.t1 - bench.t0, input: bench.tListener - bench.t0 };
  });
}

export const stripText = () => window.__bench.strip();
export const hpOf = (name) => window.__bench.hpOf(name);

export async function settle(page) {
  // Two frames: the screen has painted what it committed and nothing is still queued for it.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** Settles, then leaves the page alone for `idle` ms before the next key. */
export async function idleFor(page, idle) {
  await settle(page);
  await page.waitForTimeout(idle);
}

export async function heapAfterGc(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize / (1024 * 1024);
}
