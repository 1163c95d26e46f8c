// `node bench/ui/run.mjs [--quick] [--profile]`: the UI benchmarks in Debian's Chromium against real web mode on a
// real database (issue 11, items 1 and 7; issue 30, items 1, 2 and 5). Prints one `BENCH {json}` line per figure on
// stdout (bench/result.ts has the shape); progress goes to stderr. Each figure is compared with a baseline measured
// in the same run in the same browser.
//
// UI latency is what the GM sees: keydown → the frame that paints the result, with the key pressed after 300 ms
// and after 1 s of idle, on Enigma fights of 20, 200 and 500 combatants at round 5 with a long log, through a
// sequence of varied transitions (next turn through different combatants, damage on different targets, damage to
// 0 LP raising Mortal Peril, the prompt answered, undo of each of them). Enigma's runner is measured because of the
// five rulesets its rows show the most (stats, tags, injuries, health, the damage button). The baseline is a bare
// page making the same round trip (keydown → a message on a WebSocket → reply → DOM change → painted frame).
//
// The machine is shared: the load average is printed before and after each section, and every figure taken while
//
// This file runs the sections in order; each lives beside it: common.mjs (options, load, result lines),
// processes.mjs (web mode and the baseline server), probe.mjs (the in-page clock), runner.mjs (latency, forced
// layouts, CPU profile), screens.mjs (start, heap, the full log screen's scrolling, the campaign's screens).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumPath } from '../../scripts/chromium.mjs';
import { campaignFile, LAUNCH_ARGS, loadNow, plan, profile, quick, root, say, section, SIZES, wants } from './common.mjs';
import { prepareDatabase } from './prepare.mjs';
import { installProbe } from './probe.mjs';
import { startBaseline, startWeb } from './processes.mjs';
import { forcedLayoutSection, latencySection, openRunner, profileSection } from './runner.mjs';
import { campaignScreensSection, firstPaint, heapSection, scrollingSection, startSection } from './screens.mjs';


say(`building (node scripts/build.mjs)${quick ? ' — quick run' : ''}`);
const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--quiet'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
if (built.status !== 0) {
  console.error('The app could not be built; see the messages above.');
  process.exit(1);
}

const folder = mkdtempSync(join(tmpdir(), 'gmw-bench-ui-'));
const databasePath = join(folder, 'bench.sqlite');
const shots = join(root, 'dist', 'bench-ui');
mkdirSync(shots, { recursive: true });
const stops = [];
let browser;
try {
  const prepared = await section(`preparing the database (fights of ${SIZES.join(', ')} combatants at round 5; ${plan.heapLines.toLocaleString('en')}- and ${plan.scrollLines.toLocaleString('en')}-line logs)`,
    () => prepareDatabase(root, databasePath, { heapLines: plan.heapLines, scrollLines: plan.scrollLines, sizes: SIZES }));
  const { fights, latency } = prepared;
  for (const fight of latency) say(`  ${fight.size} combatants: round ${fight.round}, ${fight.lines.toLocaleString('en')} log lines, ${fight.events.toLocaleString('en')} events`);

  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('No Chromium found: install Debian\'s chromium or set CHROMIUM_PATH.');
  browser = await chromium.launch({ executablePath, args: LAUNCH_ARGS });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  await context.addInitScript(installProbe);
  const page = await context.newPage();

  const startLoad = loadNow();
  const bare = await startBaseline();
  stops.push(bare.stop);
  const barePaint = wants('Start') || campaignFile ? await firstPaint(page, `${bare.origin}/plain.html`, null) : null;
  const web = await startWeb(databasePath);
  stops.push(web.stop);
  const run = { browser, page, web, bare, barePaint, startLoad, prepared, fights, latency, shots, stops };
  run.appListMs = await startSection(run);
  if (wants('UI latency')) await latencySection(run);
  if (wants('Forced layout')) await forcedLayoutSection(run);
  if (profile) await profileSection(run);

  // The runner as the GM sees it, for a person to look at.
  await openRunner(page, web, (latency.find((f) => f.size === 200) ?? latency[0]).encounterId);
  const shot = join(shots, 'runner-200.png');
  await page.screenshot({ path: shot });
  say(`screenshot: ${relative(root, shot)}`);

  if (wants('Heap')) await heapSection(run);
  if (wants('Scrolling')) await scrollingSection(run);
  if (campaignFile && wants('Campaign screens')) await campaignScreensSection(run);
} finally {
  await browser?.close();
  for (const stop of stops.reverse()) await stop();
  rmSync(folder, { recursive: true, force: true });
}
