// `npm run crash-test`: kills a process writing GM events and ledger entries with SIGKILL at random moments, over
// and over on one database file, and checks after every kill that nothing acknowledged was lost and nothing
// half-written is visible (server/testing/crash-run.ts). Prints the figures docs/reliability.md quotes.
//   --kills N     how many kills (default 200)
//   --seed S      the seed of the delays and the child's choices (default: from the clock; printed)
//   --min-delay / --max-delay   the kill delay range in ms (default 5..400)
//   --db PATH     the database file (default: a new temporary folder, removed afterwards unless --keep)
import { build } from 'esbuild';
import { nodeBundle } from './node-bundle.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 && argv[at + 1] !== undefined ? argv[at + 1] : fallback;
};
const whole = (name, fallback) => {
  const value = Number(option(name, fallback));
  if (!Number.isInteger(value) || value < 0) {
    console.error(`${name} takes a whole number, not “${option(name, fallback)}”.`);
    process.exit(2);
  }
  return value;
};
const kills = whole('--kills', 200);
const seed = whole('--seed', Date.now() % 2 ** 31);
const minDelayMs = whole('--min-delay', 5);
const maxDelayMs = whole('--max-delay', 400);
if (maxDelayMs < minDelayMs) {
  console.error('--max-delay must not be below --min-delay.');
  process.exit(2);
}

// The driver is TypeScript: bundle it next to the child in dist/crash/ (better-sqlite3 stays a normal require).
const driver = join(root, 'dist', 'crash', 'crash-run.mjs');
await build({
  entryPoints: [join(root, 'server', 'testing', 'crash-run.ts')],
  outfile: driver,
  ...nodeBundle({ version: 'crash-test', external: ['esbuild'] }),
  absWorkingDir: root,
});
const { buildCrashChild, runCrashTest } = await import(pathToFileURL(driver).href);
const childScript = await buildCrashChild();

const folder = option('--db', null) ? null : mkdtempSync(join(tmpdir(), 'gmw-crash-'));
const databasePath = option('--db', null) ?? join(folder, 'gm-workstation.sqlite');
console.log(`Crash test: ${kills} kills, seed ${seed}, delays ${minDelayMs}–${maxDelayMs} ms, database ${databasePath}`);
const figures = await runCrashTest({
  databasePath, childScript, kills, seed, minDelayMs, maxDelayMs,
  log: argv.includes('--verbose') ? (line) => console.log(line) : (line) => {
    const [, run] = /^kill (\d+)\//.exec(line) ?? [];
    if (Number(run) % 25 === 0 || line.includes('PROBLEMS')) console.log(line);
  },
});
if (folder && !argv.includes('--keep')) rmSync(folder, { recursive: true, force: true });

const rows = [
  ['kills', figures.kills],
  ['writes acknowledged', figures.acknowledged],
  ['acknowledged writes found after the kill', figures.found],
  ['acknowledged writes lost', figures.lost],
  ['max writes committed but not acknowledged at one kill', figures.maxCommittedNotAcknowledged],
  ['kills between a commit and its acknowledgement', figures.killsBetweenCommitAndAck],
  ['integrity failures', figures.integrityFailures],
  ['other consistency problems', figures.problems.length],
  ['writes refused by the rules (nothing written)', figures.refusals],
  ['encounter events stored at the end', figures.eventRows],
  ['ledger entries stored at the end', figures.ledgerRows],
  ['injury rows at the end', figures.injuryRows],
  ['encounters', figures.encounters],
  ['time', `${(figures.elapsedMs / 1000).toFixed(1)} s`],
];
console.log('');
for (const [label, value] of rows) console.log(`${label.padEnd(56)} ${value}`);
for (const problem of figures.problems.slice(0, 20)) console.log(`  ${problem}`);
const failed = figures.lost > 0 || figures.integrityFailures > 0 || figures.problems.length > 0 || figures.maxCommittedNotAcknowledged > 1;
console.log(failed ? `\nCrash test FAILED (seed ${seed}).` : `\nCrash test passed (seed ${seed}).`);
process.exit(failed ? 1 : 0);
