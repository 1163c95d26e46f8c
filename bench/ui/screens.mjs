// The other screens: the full log screen (opening, scrolling), the campaign's screens, the first paint at start and
// the renderer's size.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { campaignFile, percentile, plan, quick, report, root, round, say, section, sectionLoad } from './common.mjs';
import { heapAfterGc, settle } from './probe.mjs';
import { startWeb } from './processes.mjs';
import { openRunner } from './runner.mjs';

/** Finds the full log screen's lines by their role, whatever draws them: the list, and the element that scrolls it. */
export async function findLogLines(page, timeout) {
  const list = page.getByRole('list', { name: /^full encounter log$/i });
  await list.getByRole('listitem').first().waitFor({ timeout });
  await page.evaluate(() => {
    const list = [...document.querySelectorAll('ol, ul, [role="list"]')].find((l) => /^full encounter log$/i.test(l.getAttribute('aria-label') ?? ''));
    let scroller = list;
    while (scroller && !(scroller.scrollHeight > scroller.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(scroller).overflowY))) scroller = scroller.parentElement;
    document.querySelectorAll('[data-bench-scroller]').forEach((e) => e.removeAttribute('data-bench-scroller'));
    (scroller ?? document.scrollingElement).setAttribute('data-bench-scroller', '');
  });
  return page.locator('[data-bench-scroller]');
}

/**
 * Opens the full log screen from its fight's runner, as the GM's link does (the route changes; the app is loaded):
 * milliseconds until its first line is in the page and two frames more have been painted.
 */
export async function openLogScreen(page, web, encounterId) {
  await openRunner(page, web, encounterId);
  await page.waitForTimeout(300);
  const ms = await page.evaluate((hash) => new Promise((resolve, reject) => {
    const start = performance.now();
    setTimeout(() => reject(new Error('The full log screen showed no line in 3 minutes.')), 180_000);
    location.hash = hash;
    const shown = () => [...document.querySelectorAll('ol, ul, [role="list"]')].some((l) => /^full encounter log$/i.test(l.getAttribute('aria-label') ?? '') && l.querySelector('li, [role="listitem"]'));
    const tick = () => (shown() ? requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - start))) : requestAnimationFrame(tick));
    requestAnimationFrame(tick);
  }), `#/encounter/${encounterId}/log`);
  return ms;
}

/** Runner opened the same way (the baseline of the log screen's opening): from the log screen back to the runner. */
export async function openRunnerByRoute(page, encounterId) {
  return page.evaluate((hash) => new Promise((resolve) => {
    const start = performance.now();
    location.hash = hash;
    const tick = () => ([...document.querySelectorAll('button')].some((b) => b.getAttribute('aria-label') === 'Next turn') ? requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - start))) : requestAnimationFrame(tick));
    requestAnimationFrame(tick);
  }), `#/encounter/${encounterId}`);
}

/**
 * Scrolls `scroller` with the wheel from the top down and back, then jumps about, with the page's animation
 * frames counted throughout: returns the gaps between frames (16.7 ms when none is dropped) and the long tasks.
 */
export async function scrollFrames(page, scroller, wheelSteps) {
  await settle(page);
  const start = await page.evaluate(() => performance.now());
  const box = await scroller.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 300));
  const height = await scroller.evaluate((e) => e.scrollHeight);
  const step = Math.max(400, Math.ceil(height / wheelSteps / 40));
  await page.evaluate(() => window.__bench.startFrames());
  for (let i = 0; i < wheelSteps; i++) {
    await page.mouse.wheel(0, i < wheelSteps / 2 ? step : -step);
    await page.waitForTimeout(16);
  }
  for (let i = 0; i <= 20; i++) {
    await scroller.evaluate((element, fraction) => { element.scrollTop = fraction * element.scrollHeight; }, ((i * 7) % 21) / 20);
    await page.waitForTimeout(50);
  }
  await settle(page);
  const gaps = await page.evaluate(() => window.__bench.stopFrames());
  const longTasks = await page.evaluate((from) => window.__bench.longTasks && window.__bench.longTasks.filter((t) => t.start >= from), start);
  return { gaps, longTasks };
}

/**
 * How long a screen takes to show: from setting its route on the campaign list until two frames after its content
 * is in the page (the frame that draws it has then been painted), `visits` times after one visit that loads the
 * screen's code. Returns the times in ms.
 */
export async function screenTimes(page, hash, selector, visits) {
  const times = [];
  for (let visit = 0; visit <= visits; visit++) {
    await page.evaluate(() => { location.hash = '#/'; });
    await page.locator('ul[aria-label="Campaigns"] li').first().waitFor();
    await page.waitForTimeout(200);
    const ms = await page.evaluate(([hash, selector]) => new Promise((resolve) => {
      const start = performance.now();
      location.hash = hash;
      const tick = () => (document.querySelector(selector) ? requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - start))) : requestAnimationFrame(tick));
      requestAnimationFrame(tick);
    }), [hash, selector]);
    if (visit > 0) times.push(ms);
  }
  return times;
}

export async function firstPaint(page, url, listSelector) {
  await page.goto(url);
  if (listSelector) await page.locator(listSelector).first().waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
  return page.evaluate(() => ({
    timeOrigin: performance.timeOrigin,
    fcp: performance.getEntriesByName('first-contentful-paint')[0].startTime,
    listShownAt: window.__bench.listShownAt,
  }));
}

/** The built renderer: every file, and what index.html loads at start (the rest is loaded on first use). */
export function bundleSize() {
  const folder = join(root, 'dist', 'renderer');
  const sizes = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (!entry.endsWith('.map')) {
        const content = readFileSync(path);
        sizes.set(relative(folder, path), { raw: content.length / 1024, gzip: gzipSync(content, { level: 9 }).length / 1024 });
      }
    }
  };
  walk(folder);
  const html = readFileSync(join(folder, 'index.html'), 'utf8');
  const atStart = ['index.html', ...[...html.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((m) => m[1])].filter((file) => sizes.has(file));
  const sum = (files, key) => files.reduce((total, file) => total + sizes.get(file)[key], 0);
  const all = [...sizes.keys()];
  return { raw: sum(all, 'raw'), gzip: sum(all, 'gzip'), startRaw: sum(atStart, 'raw'), startGzip: sum(atStart, 'gzip') };
}

/**
 * Start: from spawn to the first paint of the campaign list, against a bare static server's first paint (taken before
 * web mode is spawned, so that neither waits for the other). Returns spawn → campaign list shown, in ms.
 */
export async function startSection({ page, web, bare, barePaint, startLoad }) {
  return section('start', async () => {
    sectionLoad.before = Math.max(sectionLoad.before, startLoad[0]);
    if (!barePaint) {
      // The address with the token: the page keeps its access for the screens measured next.
      await page.goto(web.url);
      await page.locator('ul[aria-label="Campaigns"] li').first().waitFor({ timeout: 60_000 });
      return 0;
    }
    const bareStartMs = barePaint.timeOrigin + barePaint.fcp - bare.spawnedAt;
    const appPaint = await firstPaint(page, web.url, 'ul[aria-label="Campaigns"] li');
    const appFcpMs = appPaint.timeOrigin + appPaint.fcp - web.spawnedAt;
    const appListMs = appPaint.timeOrigin + (appPaint.listShownAt ?? appPaint.fcp) - web.spawnedAt;
    const bareStart = { name: 'bare static server: spawn → first paint', value: bareStartMs };
    // The first start after a build compiles the server from source; later ones from the cache it kept.
    const note = web.codeCache ? 'a code cache beside the server (scripts/web-server.mjs)' : 'no code cache beside the server: the first start after a build';
    report({ section: 'Start', name: 'web mode: spawn → first contentful paint', value: appFcpMs, unit: 'ms', baseline: bareStart, note });
    report({ section: 'Start', name: 'web mode: spawn → campaign list shown', value: appListMs, unit: 'ms', baseline: bareStart, note });
    report({ section: 'Start', name: 'page load → first contentful paint', value: appPaint.fcp, unit: 'ms', baseline: { name: 'plain static page', value: barePaint.fcp } });
    const size = bundleSize();
    const plainBytes = (await (await fetch(`${bare.origin}/plain.html`)).arrayBuffer()).byteLength;
    const plainPage = { name: 'plain static page (plain.html)', value: plainBytes / 1024 };
    report({ section: 'Start', name: 'renderer bundle (dist/renderer, raw)', value: size.raw, unit: 'KiB', baseline: plainPage });
    report({ section: 'Start', name: 'renderer bundle (dist/renderer, gzip)', value: size.gzip, unit: 'KiB', baseline: plainPage });
    report({ section: 'Start', name: 'renderer loaded at start (index.html and what it links, raw)', value: size.startRaw, unit: 'KiB', baseline: plainPage });
    report({ section: 'Start', name: 'renderer loaded at start (index.html and what it links, gzip)', value: size.startGzip, unit: 'KiB', baseline: plainPage });
    return appListMs;
  });
}

/**
 * Heap after GC: a bare page, the runner of a 200-combatant fight with a long log, and the full log screen of it and
 * of the scrolling fight (100,000 lines in a full run).
 */
export async function heapSection({ page, web, bare, prepared, fights }) {
  return section('heap', async () => {
    await page.goto(`${bare.origin}/rows.html`);
    const bareHeap = { name: 'bare DOM page (200 rows)', value: await heapAfterGc(page) };
    await openRunner(page, web, fights.heap.encounterId);
    const lines = prepared.heapLog.toLocaleString('en');
    report({ section: 'Heap', name: `runner, 200 combatants, ${lines}-line log: JS heap after GC`, value: await heapAfterGc(page), unit: 'MB', baseline: bareHeap, target: { op: '<=', value: 30, of: 'value' } });
    for (const [fight, count, combatants] of [[fights.heap, prepared.heapLog, 200], [fights.scroll, prepared.scrollLog, 8]]) {
      await page.goto(`${web.origin}/#/encounter/${fight.encounterId}/log`);
      await findLogLines(page, 180_000);
      await settle(page);
      const target = count >= 100_000 ? { op: '<=', value: 10, of: 'value' } : { op: '<=', value: 30, of: 'value' };
      report({ section: 'Heap', name: `full log screen, ${combatants} combatants, ${count.toLocaleString('en')}-line log: JS heap after GC`, value: await heapAfterGc(page), unit: 'MB', baseline: bareHeap, target });
    }
  });
}

/** Scrolling the full log: frames dropped while scrolling (rAF gaps), against the bare page scrolled the same way. */
export async function scrollingSection({ page, web, bare, prepared, fights }) {
  return section(`scrolling a ${prepared.scrollLog.toLocaleString('en')}-line log`, async () => {
    const scrollLines = prepared.scrollLog.toLocaleString('en');
    const opened = [];
    const runnerOpened = [];
    for (let visit = 0; visit < (quick ? 2 : 4); visit++) {
      opened.push(await openLogScreen(page, web, fights.scroll.encounterId));
      runnerOpened.push(await openRunnerByRoute(page, fights.scroll.encounterId));
    }
    say(`  opened in ${opened.map((t) => round(t)).join(' / ')} ms (runner: ${runnerOpened.map((t) => round(t)).join(' / ')} ms)`);
    const openTarget = prepared.scrollLog >= 100_000 ? { op: '<=', value: 300, of: 'value' } : null;
    report({ section: 'Scrolling', name: `full log screen, ${scrollLines} lines: opened from its runner to the first lines painted (median of ${opened.length})`, value: percentile(opened, 50), unit: 'ms',
      baseline: { name: 'its runner opened the same way (median)', value: percentile(runnerOpened, 50) }, target: openTarget });

    await page.goto(`${bare.origin}/rows.html`);
    await page.locator('ol li').first().waitFor();
    const bareScroll = await scrollFrames(page, page.locator('html'), plan.wheelSteps);
    await page.goto(`${web.origin}/#/encounter/${fights.scroll.encounterId}/log`);
    const scroller = await findLogLines(page, 180_000);
    await page.waitForTimeout(500);
    const scrolled = await scrollFrames(page, scroller, plan.wheelSteps);
    const shown = await page.getByText(/ of [\d,]+ lines?/).first().textContent().catch(() => '?');
    say(`  ${shown}; ${scrolled.gaps.length} frames, ${scrolled.longTasks?.length ?? '?'} long tasks while scrolling`);
    const bareGaps = { p95: percentile(bareScroll.gaps, 95), max: Math.max(...bareScroll.gaps) };
    report({ section: 'Scrolling', name: `full log screen, ${scrollLines} lines: frame gap p95 while scrolling`, value: percentile(scrolled.gaps, 95), unit: 'ms',
      baseline: { name: 'bare DOM page (200 rows) scrolled the same way: frame gap p95', value: bareGaps.p95 }, note: `${scrolled.gaps.length} frames; 16.7 ms is a frame at 60 Hz`,
      extra: { frames: scrolled.gaps.length, over50: scrolled.gaps.filter((g) => g > 50).length, over33: scrolled.gaps.filter((g) => g > 33.4).length } });
    report({ section: 'Scrolling', name: `full log screen, ${scrollLines} lines: longest frame gap while scrolling`, value: Math.max(...scrolled.gaps), unit: 'ms',
      baseline: { name: 'bare DOM page (200 rows) scrolled the same way: longest frame gap', value: bareGaps.max }, target: { op: '<=', value: 50, of: 'value' },
      note: scrolled.longTasks ? `longest task ${round(Math.max(0, ...scrolled.longTasks.map((t) => t.duration)))} ms` : undefined });
  });
}

/**
 * The campaign's screens on the Campaign section's generated campaign (1,000 encounters), in web mode on that
 * file: its home, its first party member's history and its timeline, against the backups screen (small: one
 * request, a short list). The issue holds the home's and the history's handlers to 100 and 50 ms (the node
 * section); these are the screens those handlers feed, reported.
 */
export async function campaignScreensSection({ page, stops, appListMs }) {
  return section('campaign screens: web mode on the generated campaign', async () => {
    const db = new Database(campaignFile, { readonly: true });
    const { campaignId, characterId } = db.prepare(`SELECT c.id AS campaignId, (SELECT id FROM characters WHERE campaign_id = c.id AND role = 'pc' ORDER BY created_at, rowid LIMIT 1) AS characterId
      FROM campaigns c ORDER BY c.created_at LIMIT 1`).get();
    const size = db.prepare('SELECT count(*) AS n FROM encounters WHERE campaign_id = ?').get(campaignId).n.toLocaleString('en');
    db.close();
    const campaignWeb = await startWeb(campaignFile);
    stops.push(campaignWeb.stop);
    // Starting on a file this size: its start-up check reads the whole file, and the start's automatic backup copies
    // it while the first calls go on (issue 11).
    const bigPaint = await firstPaint(page, campaignWeb.url, 'ul[aria-label="Campaigns"] li');
    const megabytes = Math.round(statSync(campaignFile).size / 1024 / 1024);
    report({ section: 'Campaign screens', name: `web mode on the generated campaign (${megabytes} MB): spawn → campaign list shown`, value: bigPaint.timeOrigin + (bigPaint.listShownAt ?? bigPaint.fcp) - campaignWeb.spawnedAt, unit: 'ms',
      baseline: { name: 'the same on the benchmark\'s small database (Start)', value: appListMs } });
    // The screens are timed once the start's backup is made, so that its last steps (a whole-file sync and check)
    // fall outside them.
    const backups = join(dirname(campaignFile), 'backups');
    const startBackupMade = () => existsSync(backups) && readdirSync(backups).some((name) => name.endsWith('-start.sqlite') && statSync(join(backups, name)).mtimeMs >= campaignWeb.spawnedAt);
    for (const deadline = Date.now() + 300_000; !startBackupMade() && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 100));
    const visits = quick ? 3 : 9;
    const baseline = { name: 'backups screen shown, its one backup listed (median)', value: percentile(await screenTimes(page, '#/backups', 'table.card tbody tr', visits), 50) };
    for (const [name, hash, selector] of [
      [`campaign home shown (${size} encounters)`, `#/campaign/${campaignId}`, '#encounters-heading'],
      ['a party member\'s history shown', `#/campaign/${campaignId}/character/${characterId}/history`, '#items-heading'],
      ['the campaign timeline shown', `#/campaign/${campaignId}/timeline`, 'ol.items li'],
    ]) {
      const times = await screenTimes(page, hash, selector, visits);
      report({ section: 'Campaign screens', name: `${name}, median of ${visits}`, value: percentile(times, 50), unit: 'ms', baseline });
      say(`  ${name}: ${times.map((t) => round(t)).join(' / ')} ms`);
    }
    // Calls made back to back while a backup of this file is made (fix 32: on a worker thread, the calls do not wait
    // for it): the longest wait, beside the median call.
    say('campaign screens: calls during a backup');
    const token = new URL(campaignWeb.url).searchParams.get('token');
    const call = async (name) => {
      const answer = await fetch(`${campaignWeb.origin}/api/${name}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', origin: campaignWeb.origin }, body: '{}' });
      const body = await answer.json();
      if (!answer.ok || 'error' in body) throw new Error(`${name} was refused: ${JSON.stringify(body)}`);
    };
    let backingUpSettled = false;
    const backingUp = call('backups:create').finally(() => { backingUpSettled = true; });
    const waits = [];
    while (!backingUpSettled) {
      const start = performance.now();
      await call('campaigns:list');
      waits.push(performance.now() - start);
    }
    await backingUp;
    report({ section: 'Campaign screens', name: `campaigns:list called back to back while a backup of the file is made (${waits.length} calls): longest wait`, value: Math.max(...waits), unit: 'ms',
      baseline: { name: 'the median call', value: percentile(waits, 50) } });
  });
}
