// The runner's latency (issue 30, items 1 and 2): a sequence of varied transitions timed key by key, the same
// sequences under a Chromium trace (forced layouts, where the time goes), and a JS CPU profile of the keys.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CORES, IDLES, keepTrace, loadNow, percentile, plan, report, root, round, say, section, TARGETS } from './common.mjs';
import { idleFor, hpOf, keyHooks, settle, stripText, timeKey } from './probe.mjs';
import { forcedLayouts, pressWindows, timeBreakdown } from './trace.mjs';

/** N on the round-trip page, `presses` times after `idle` ms each (two presses first, to open the socket's path). */
export async function bareRoundTrip(page, baselineOrigin, idle, presses, label = 'baseline') {
  await page.goto(`${baselineOrigin}/roundtrip.html`);
  await page.waitForFunction(() => document.querySelector('#strip') !== null);
  await page.waitForTimeout(300);
  const samples = [];
  for (let i = 0; i < presses + 2; i++) {
    await idleFor(page, idle);
    const before = await page.evaluate(() => document.querySelector('ol').textContent);
    const timing = await timeKey(page, [['rowsChanged', before]], () => page.keyboard.press('n'), `${label}#${i}`);
    if (i >= 2) samples.push(timing);
  }
  return samples;
}

/** The names of the runner's rows, bar the party's, in order. */
export const npcNamesOf = (page) => page.evaluate(() => [...document.querySelectorAll('li[aria-label]')]
  .map((li) => li.getAttribute('aria-label').replace(/^\d+\. /, '').split(', ')[0]).filter((name) => !['Ash', 'Bryn', 'Cole', 'Dara'].includes(name)));

export async function openRunner(page, web, encounterId) {
  await page.goto(`${web.origin}/#/encounter/${encounterId}`);
  try {
    await page.getByRole('button', { name: 'Next turn' }).waitFor({ timeout: 60_000 });
  } catch (error) {
    await page.screenshot({ path: join(root, 'dist', 'bench-ui', 'runner-not-shown.png') });
    throw error;
  }
  await settle(page);
}

/**
 * One sequence of varied transitions on the runner, each key pressed after `idle` ms of idle, its timings added to
 * `record(path, timing)`:
 *  1. N: next turn (the turn passes to the next combatant, a different one each time);
 *  2. damage 1 to a foe (D, the target chosen, Enter in the amount field);
 *  3. N again;
 *  4. damage to 0 LP on another foe: Mortal Peril is asked (the screen shows the question);
 *  5. the prompt answered (Survive, with its cost typed; Enter);
 *  6–9. Ctrl+Z four times: the answer (the question is back), the damage to 0, the second next turn, the first
 *       damage.
 * The fight moves one turn on per sequence, and the targets move through the foes.
 */
export async function runnerSequence(page, { idle, turn, record }) {
  const names = await npcNamesOf(page);
  const active = await page.evaluate(() => document.querySelector('[data-testid="active-name"]')?.textContent ?? '');
  const foes = names.filter((name) => name !== active);
  const blur = () => page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  const label = (path) => `${path}#${turn}`;

  const nextTurn = async () => {
    await blur();
    await idleFor(page, idle);
    const before = await page.evaluate(stripText);
    record('nextTurn', await timeKey(page, [['stripChanged', before]], () => page.keyboard.press('n'), label('nextTurn')));
  };
  /** Opens the damage form on `name`; returns its LP shown in the form ("[3] Goblin 2 (7 LP)"). */
  const openDamage = async (name) => {
    await blur();
    await page.keyboard.press('d');
    const form = page.getByRole('form', { name: 'damage form' });
    await form.waitFor();
    const option = form.getByLabel('Who').locator('option').filter({ hasText: `] ${name} (` });
    const [value, text] = await Promise.all([option.getAttribute('value'), option.textContent()]);
    await form.getByLabel('Who').selectOption(value);
    return { form, lp: Number(/\((-?\d+) [^)]*\)$/.exec(text)?.[1] ?? 1) };
  };
  const damage = async (name, toZero) => {
    const { form, lp } = await openDamage(name);
    await form.getByLabel('Amount').fill(String(toZero ? Math.max(1, lp) : 1));
    await form.getByLabel('Amount').focus();
    await idleFor(page, idle);
    const hp = await page.evaluate(hpOf, name);
    const until = toZero ? [['prompt', true]] : [['hpChanged', { name, before: hp }]];
    record('damage', await timeKey(page, until, () => page.keyboard.press('Enter'), label(toZero ? 'damageToZero' : 'damage')));
    await form.waitFor({ state: 'detached' });
    return hp;
  };
  const undo = async (until, what) => {
    await blur();
    await idleFor(page, idle);
    record('undo', await timeKey(page, until, () => page.keyboard.press('Control+z'), label(`undo-${what}`)));
  };

  const first = foes[(2 * turn) % foes.length];
  const second = foes[(2 * turn + 1) % foes.length];
  await nextTurn();
  const firstHp = await damage(first, false);
  await nextTurn();
  const stripBeforeSecondTurn = await page.evaluate(stripText);
  const secondHp = await damage(second, true);
  // The question takes focus; the cost of surviving is typed, and Enter in its field sends the answer.
  const cost = page.getByLabel('Cost of surviving');
  await cost.fill('a scar across the brow');
  await cost.focus();
  await idleFor(page, idle);
  record('promptAnswer', await timeKey(page, [['prompt', false]], () => page.keyboard.press('Enter'), label('promptAnswer')));
  await undo([['prompt', true]], 'answer');
  await undo([['prompt', false], ['hpIs', { name: second, value: secondHp }]], 'damageToZero');
  await undo([['stripChanged', stripBeforeSecondTurn]], 'nextTurn');
  await undo([['hpIs', { name: first, value: firstHp }]], 'damage');
}

export const PATHS = ['nextTurn', 'damage', 'undo', 'promptAnswer'];
export const PATH_NAMES = { nextTurn: 'next turn', damage: 'apply damage', undo: 'undo', promptAnswer: 'prompt answer (Mortal Peril survived)' };

/** Every sequence on one fight, idles alternating so that both meet the same moments of the machine's load. */
export async function runnerLatency(page, web, fight) {
  await openRunner(page, web, fight.encounterId);
  const samples = Object.fromEntries(IDLES.map((idle) => [idle, Object.fromEntries(PATHS.map((path) => [path, []]))]));
  let turn = 0;
  // One sequence to warm up (the screen's code, the server's statements), not recorded.
  await runnerSequence(page, { idle: IDLES[0], turn: turn++, record: () => {} });
  for (let cycle = 0; cycle < plan.cycles; cycle++) {
    for (const idle of cycle % 2 === 0 ? IDLES : IDLES.toReversed()) {
      await runnerSequence(page, { idle, turn: turn++, record: (path, timing) => samples[idle][path].push(timing) });
    }
  }
  return samples;
}

/**
 * The same sequences replayed under a Chromium trace (devtools.timeline): for each key, from its keydown mark to its
 * painted mark, the longest forced (synchronous) layout — a layout run inside script rather than in the frame's own
 * rendering steps — and where the main thread's time went (script, style, layout, paint, GC, other).
 */
export async function tracedRunner(browser, page, web, fight) {
  await openRunner(page, web, fight.encounterId);
  await runnerSequence(page, { idle: IDLES[0], turn: 0, record: () => {} });
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.stack', 'blink.user_timing', 'v8.execute', 'toplevel'] });
  for (let cycle = 0; cycle < plan.tracedCycles; cycle++) await runnerSequence(page, { idle: IDLES[0], turn: 1 + cycle, record: () => {} });
  const raw = await browser.stopTracing();
  // `--keep-trace`: the whole trace beside the screenshots, for reading press by press (Chromium's DevTools opens it).
  if (keepTrace) writeFileSync(join(root, 'dist', 'bench-ui', `trace-${fight.size}.json`), raw);
  return analyseTrace(JSON.parse(raw.toString('utf8')));
}

/** Per path (the label before '#'): the longest forced layout, and each press's time breakdown. */
export function analyseTrace(trace) {
  const events = trace.traceEvents ?? trace;
  const byPath = {};
  for (const press of pressWindows(events)) {
    const path = press.label.split('#')[0].replace(/^damageToZero$/, 'damage').replace(/^undo-.*$/, 'undo');
    const entry = (byPath[path] ??= { forcedLayoutMs: 0, forcedLayouts: [], presses: [] });
    const forced = forcedLayouts(events, press);
    for (const layout of forced) entry.forcedLayouts.push({ ms: layout.ms, in: press.label, under: layout.under, stack: layout.stack.map(frameText) });
    entry.forcedLayoutMs = Math.max(entry.forcedLayoutMs, ...forced.map((l) => l.ms));
    entry.presses.push({ label: press.label, ms: press.ms, ...timeBreakdown(events, press) });
  }
  return byPath;
}

/**
 * A stack frame of the built renderer, readable: its function, file, line and column, and the bundle's text at that
 * place (the bundle is minified, so the text says more than the name).
 */
export function frameText({ functionName, url, line, column }) {
  const file = url ? join(root, 'dist', 'renderer', new URL(url).pathname) : null;
  let near = '';
  if (file && existsSync(file)) {
    // The trace's line and column count from 1.
    const source = readFileSync(file, 'utf8').split('\n')[line - 1] ?? '';
    near = ` «${source.slice(Math.max(0, column - 61), column + 40)}»`;
  }
  return `${functionName || '(anonymous)'} ${url ? new URL(url).pathname : '?'}:${line}:${column}${near}`;
}

/**
 * A path's mean breakdown over its traced presses (means, so that the parts add up to the mean time), with the
 * names most of its "other" time went to.
 */
export function meanBreakdown(presses) {
  const fields = ['ms', 'script', 'style', 'layout', 'paint', 'gc', 'other', 'idle'];
  const mean = (f) => round(presses.reduce((sum, p) => sum + (p[f] ?? 0), 0) / Math.max(1, presses.length), 2);
  const others = new Map();
  for (const press of presses) for (const [name, ms] of Object.entries(press.others ?? {})) others.set(name, (others.get(name) ?? 0) + ms / presses.length);
  return { ...Object.fromEntries(fields.map((f) => [f, mean(f)])), otherMostly: [...others].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([name, ms]) => `${name} ${round(ms, 2)}`) };
}

/** The places that forced layouts on a path: the innermost script frame, its longest layout and how many. */
export function forcedBy(layouts) {
  const places = new Map();
  for (const layout of layouts) {
    const where = layout.stack[0] ?? `(no stack) under ${layout.under}`;
    const seen = places.get(where) ?? { where, longestMs: 0, count: 0 };
    seen.longestMs = round(Math.max(seen.longestMs, layout.ms), 2);
    seen.count += 1;
    places.set(where, seen);
  }
  return [...places.values()].sort((a, b) => b.longestMs - a.longestMs);
}

/**
 * A JS CPU profile of the keys of three sequences at 300 ms idle (for whoever optimises the renderer): sampled from
 * just before each key to its painted frame, so that the benchmark's own driving (Playwright filling the forms) is
 * left out. Returns the top functions by self time over all keys; writes the profiles to `file`.
 */
export async function cpuProfile(page, web, fight, file) {
  await openRunner(page, web, fight.encounterId);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  const profiles = [];
  keyHooks.before = () => cdp.send('Profiler.start');
  keyHooks.after = async () => profiles.push((await cdp.send('Profiler.stop')).profile);
  try {
    for (let turn = 0; turn < 3; turn++) await runnerSequence(page, { idle: IDLES[0], turn, record: () => {} });
  } finally {
    keyHooks.before = null;
    keyHooks.after = null;
  }
  await cdp.detach();
  writeFileSync(file, JSON.stringify(profiles));
  const self = new Map();
  for (const result of profiles) {
    // Each sample's time is the delta to the next one.
    const byId = new Map(result.nodes.map((node) => [node.id, node]));
    result.samples.forEach((id, i) => {
      const { functionName, url, lineNumber, columnNumber } = byId.get(id).callFrame;
      const key = `${functionName || '(anonymous)'} ${url ? new URL(url).pathname : ''}:${lineNumber + 1}:${columnNumber + 1}`;
      self.set(key, (self.get(key) ?? 0) + (result.timeDeltas[i + 1] ?? 0) / 1000);
    });
  }
  return [...self].filter(([key]) => !key.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, 25);
}

/** UI latency: the bare round trip at each idle, then each fight's sequences; `latency.json` beside the screenshots. */
export async function latencySection({ page, web, bare, latency, shots }) {
  const floor = await section('latency: bare round-trip page', async () => {
    const out = {};
    for (const idle of IDLES) out[idle] = (await bareRoundTrip(page, bare.origin, idle, plan.baselinePresses)).map((t) => t.painted);
    return out;
  });
  const latencyFigures = [];
  for (const fight of latency) {
    const samples = await section(`latency: Enigma runner, ${fight.size} combatants`, () => runnerLatency(page, web, fight));
    const where = `${fight.size} combatants, round ${fight.round}, ${fight.lines.toLocaleString('en')}-line log`;
    for (const idle of IDLES) {
      for (const path of PATHS) {
        const timings = samples[idle][path];
        const painted = timings.map((t) => t.painted);
        const mutation = timings.map((t) => t.mutation);
        const input = timings.map((t) => t.input);
        const pct = (list) => ({ p50: round(percentile(list, 50), 2), p95: round(percentile(list, 95), 2), p99: round(percentile(list, 99), 2) });
        const target = path !== 'promptAnswer' && TARGETS[fight.size] ? { op: '<=', value: TARGETS[fight.size], of: 'value' } : null;
        const extra = { samples: painted.length, painted: pct(painted), firstMutation: pct(mutation), inputDelay: pct(input) };
        const name = (p) => `${PATH_NAMES[path]} painted ${p} (${where}; after ${idle} ms idle)`;
        const baseline = (p) => ({ name: `bare round-trip page (keydown → WebSocket → reply → DOM → painted), ${p}`, value: percentile(floor[idle], Number(p.slice(1))) });
        const mutationNote = `first mutation p95 ${round(percentile(mutation, 95))} ms; ${painted.length} presses`;
        report({ section: 'UI latency', name: name('p95'), value: percentile(painted, 95), unit: 'ms', baseline: baseline('p95'), target, note: mutationNote, extra });
        report({ section: 'UI latency', name: name('p50'), value: percentile(painted, 50), unit: 'ms', baseline: baseline('p50') });
        report({ section: 'UI latency', name: name('p99'), value: percentile(painted, 99), unit: 'ms', baseline: baseline('p99') });
        latencyFigures.push({ size: fight.size, idle, path, ...extra });
        say(`  ${PATH_NAMES[path]}, ${idle} ms idle: painted p50/p95/p99 ${extra.painted.p50} / ${extra.painted.p95} / ${extra.painted.p99} ms; first mutation ${extra.firstMutation.p50} / ${extra.firstMutation.p95} / ${extra.firstMutation.p99} ms; input delay p95 ${extra.inputDelay.p95} ms (${painted.length})`);
      }
    }
  }
  writeFileSync(join(shots, 'latency.json'), `${JSON.stringify({ load: loadNow(), cores: CORES, baseline: floor, figures: latencyFigures }, null, 2)}\n`);
}

/** Forced layouts and where the time goes: the same sequences under a trace, at 300 ms idle. */
export async function forcedLayoutSection({ browser, page, web, latency, shots }) {
  const traced = {};
  for (const fight of latency) {
    traced[fight.size] = await section(`forced layouts: traced sequences, ${fight.size} combatants`, () => tracedRunner(browser, page, web, fight));
    for (const path of PATHS) {
      const found = traced[fight.size][path];
      if (!found) continue;
      const longest = found.forcedLayouts.toSorted((a, b) => b.ms - a.ms)[0];
      report({ section: 'Forced layout', name: `${PATH_NAMES[path]}: longest forced synchronous layout (${fight.size} combatants)`, value: found.forcedLayoutMs, unit: 'ms',
        baseline: { name: 'bare round-trip page (none forced)', value: 0 }, target: { op: '<=', value: 1, of: 'value' },
        note: longest ? `in ${longest.in}, under ${longest.under}${longest.stack[0] ? ` at ${longest.stack[0]}` : ''}; ${found.forcedLayouts.length} forced layouts in ${found.presses.length} presses` : `${found.presses.length} presses traced`,
        extra: { breakdown: meanBreakdown(found.presses), forcedBy: forcedBy(found.forcedLayouts) } });
      say(`  ${fight.size}, ${PATH_NAMES[path]}: mean ${JSON.stringify(meanBreakdown(found.presses))}`);
      for (const place of forcedBy(found.forcedLayouts)) say(`    forced layout ${place.longestMs} ms (${place.count}×) at ${place.where}`);
    }
}
writeFileSync(join(shots, 'trace-breakdown.json'), `${JSON.stringify(traced, null, 2)}\n`);
}

/** A JS CPU profile of the keys at 200 combatants (`--profile`). */
export async function profileSection({ page, web, latency, shots }) {
  return section('CPU profile: 200 combatants', async () => {
    const file = join(shots, 'profile-200.cpuprofiles.json');
    const top = await cpuProfile(page, web, latency.find((f) => f.size === 200) ?? latency[0], file);
    say(`  ${relative(root, file)}; top self time:`);
    for (const [where, ms] of top) say(`    ${round(ms, 1)} ms  ${where}`);
  });
}
