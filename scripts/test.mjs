// `npm test`: type checks, every unit test (Vitest), then the end-to-end suite (Playwright on a system
// Chromium) whenever a Chromium is found. Ends with the line `N passed, N failed` that CI reads.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumPath } from './chromium.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const results = join(root, 'test-results');
const run = (command, args, env = {}) => spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status;
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);
const ci = process.env.CI === 'true' || process.env.CI === '1';

let passed = 0;
let failed = 0;
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

console.log('\n▶ Type checks (tsc, svelte-check)');
const typed = run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']) === 0
  && run(bin('svelte-check'), ['--tsconfig', './tsconfig.json', '--threshold', 'error', '--output', 'human']) === 0;
if (!typed) {
  console.error('✖ Type checks failed.');
  failed += 1;
}

console.log('\n▶ Unit tests (Vitest: core, db, server, electron, renderer)');
const unitFile = join(results, 'unit-report.json');
run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitFile}`]);
const unit = readJson(unitFile);
if (unit) {
  passed += unit.numPassedTests;
  // A suite that fails to load has no failed test of its own: count it too.
  failed += unit.numFailedTests + (unit.numFailedTests === 0 ? (unit.numFailedTestSuites ?? 0) : 0);
} else {
  console.error('✖ Vitest did not report any result.');
  failed += 1;
}

const chromium = chromiumPath();
if (!chromium) {
  const message = [
    '',
    '════════════════════════════════════════════════════════════════════════',
    '  END-TO-END TESTS NOT RUN: no Chromium was found on this machine.',
    '  Install it with:   sudo apt-get install -y chromium',
    '  (or point CHROMIUM_PATH at a Chromium or Chrome binary), then run npm test again.',
    '════════════════════════════════════════════════════════════════════════',
    '',
  ].join('\n');
  console.error(message);
  if (ci) {
    console.error('With CI=true a missing browser is a failure.');
    failed += 1;
  }
} else {
  console.log(`\n▶ End-to-end tests (Playwright, ${chromium})`);
  if (run(process.execPath, [join(root, 'scripts/build.mjs'), '--quiet']) !== 0) {
    console.error('✖ The app could not be built for the end-to-end tests.');
    failed += 1;
  } else {
    run(bin('playwright'), ['test']);
    const e2e = readJson(join(results, 'e2e-report.json'));
    if (e2e) {
      passed += e2e.stats.expected + (e2e.stats.flaky ?? 0);
      failed += e2e.stats.unexpected;
      if (e2e.errors?.length) failed += e2e.errors.length;
    } else {
      console.error('✖ Playwright did not report any result.');
      failed += 1;
    }
  }
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
