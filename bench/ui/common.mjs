// The UI benchmarks' options (from the command line), the load average and the result lines: what every section of
// bench/ui/run.mjs shares.
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const quick = process.argv.includes('--quick');
/** Also takes a JS CPU profile of the keys at 200 combatants (dist/bench-ui/profile-200.cpuprofiles.json). */
export const profile = process.argv.includes('--profile');
/** Also keeps the Forced layout section's whole Chromium traces (dist/bench-ui/trace-<size>.json). */
export const keepTrace = process.argv.includes('--keep-trace');
/** The Campaign section's generated campaign (`--campaign <file>`, passed by scripts/bench.mjs when it ran). */
export const campaignFile = process.argv.includes('--campaign') ? process.argv[process.argv.indexOf('--campaign') + 1] : null;
/** `--only <section>` (repeatable, as scripts/bench.mjs passes it): only those UI sections are measured and reported. */
export const only = process.argv.flatMap((arg, i) => (arg === '--only' && process.argv[i + 1] ? [process.argv[i + 1].toLowerCase()] : []));
export const wants = (name) => only.length === 0 || only.includes(name.toLowerCase());
/**
 * `cycles`: sequences of presses per fight and per idle time (each sequence: 2 next turns, 2 damages, 1 prompt
 * answer, 4 undos), after one that warms up; `tracedCycles`: sequences replayed under a trace for forced layouts.
 */
export const plan = quick
  ? { cycles: 3, tracedCycles: 2, baselinePresses: 12, heapLines: 2_000, scrollLines: 10_000, wheelSteps: 60 }
  : { cycles: 15, tracedCycles: 4, baselinePresses: 60, heapLines: 10_000, scrollLines: 100_000, wheelSteps: 200 };
/** Idle before each measured key: Improved Initiative's method presses 300 ms apart; a GM at the table, often longer. */
export const IDLES = [300, 1000];
/** The fights' sizes (`--sizes 20,200` for fewer). */
export const SIZES = process.argv.includes('--sizes') ? process.argv[process.argv.indexOf('--sizes') + 1].split(',').map(Number) : [20, 200, 500];
/** Issue 30, item 2: painted p95 of next turn, damage and undo. */
export const TARGETS = { 20: 16, 200: 20 };
export const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', '--enable-precise-memory-info'];

export const began = Date.now();
export const say = (line) => process.stderr.write(`[bench:ui ${String(Math.round((Date.now() - began) / 1000)).padStart(4)} s] ${line}\n`);
export const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;


export const CORES = cpus().length;
/** The 1-, 5- and 15-minute load averages now. */
export function loadNow() {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
  } catch {
    return loadavg();
  }
}
/** The load around the section being measured (set by `section`), stamped on each figure reported in it. */
export let sectionLoad = null;
/** Runs one section of the benchmark, printing the load average before and after it. */
export async function section(name, work) {
  const before = loadNow();
  say(`${name} — load average ${before.join(' ')} (${CORES} cores)`);
  sectionLoad = { before: before[0], after: null };
  try {
    return await work();
  } finally {
    const after = loadNow();
    sectionLoad.after = after[0];
    say(`${name} done — load average ${after.join(' ')}`);
  }
}

/** One result line, in the shape bench/result.ts describes, with the load it was taken under. */
export function report({ section: part, name, value, unit, baseline, target = null, note, extra = {}, load = sectionLoad }) {
  // A baseline of 0 (no long task at all on the bare page) has no ratio: null rather than Infinity.
  const ratio = baseline.value > 0 ? round(value / baseline.value, 2) : null;
  const pass = target ? (target.op === '<=' ? value <= target.value : value >= target.value) : true;
  const now = loadNow()[0];
  const loads = [load?.before, load?.after ?? now].filter((l) => typeof l === 'number');
  const worst = Math.max(...loads);
  const underLoad = worst > CORES;
  const notes = [note, underLoad ? `taken under load ${worst.toFixed(1)} on ${CORES} cores` : null].filter(Boolean);
  const result = {
    section: part, name, value: round(value, 2), unit, baseline: { name: baseline.name, value: round(baseline.value, 2) }, ratio, ...(target ? { target } : {}), pass,
    ...(notes.length ? { note: notes.join('; ') } : {}), load: { oneMinute: loads.map((l) => round(l, 2)), cores: CORES }, underLoad, ...extra,
  };
  process.stdout.write(`BENCH ${JSON.stringify(result)}\n`);
}

export function percentile(samples, p) {
  const sorted = samples.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
