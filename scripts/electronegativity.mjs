// `npm run security`: Doyensec's Electronegativity over the desktop app's main-process code, its preload and the
// renderer page, offline. Fails (exit 1) on any high or medium finding not in tools/electronegativity/allowlist.json
// (each entry there gives its reason), on an allow-list entry that no longer matches anything, and on a file the
// scanner could not parse (a scan that read nothing must not pass).
//
// Electronegativity lives in its own package (tools/electronegativity, `npm ci --prefix tools/electronegativity`)
// so its old dependency tree (eslint 7, typescript 4.2) stays out of the app's.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const toolDir = join(root, 'tools/electronegativity');
const require = createRequire(join(toolDir, 'package.json'));

let run;
try {
  run = require('@doyensec/electronegativity');
} catch {
  console.error('Electronegativity is not installed; run "npm ci --prefix tools/electronegativity" first.');
  process.exit(1);
}

// Offline: the scanner asks the network for translations (and, in a check left out below, Electron's release
// list). Refuse every outgoing connection at once so it falls back to its bundled English without waiting.
net.Socket.prototype.connect = function refuseConnection() {
  process.nextTick(() => this.destroy(Object.assign(new Error('network disabled for the offline scan'), { code: 'ENETUNREACH' })));
  return this;
};

// What ships in the desktop app: electron/*.ts without tests, the renderer page (for its CSP) and package.json
// (the Electron version), copied into one folder so the global checks see them together.
const stage = mkdtempSync(join(tmpdir(), 'gmw-electronegativity-'));
mkdirSync(join(stage, 'electron'));
mkdirSync(join(stage, 'renderer'));
for (const name of readdirSync(join(root, 'electron'))) {
  if (/\.ts$/.test(name) && !/\.test\.ts$/.test(name)) cpSync(join(root, 'electron', name), join(stage, 'electron', name));
}
cpSync(join(root, 'renderer/index.html'), join(stage, 'renderer/index.html'));
cpSync(join(root, 'package.json'), join(stage, 'package.json'));

const allow = JSON.parse(readFileSync(join(toolDir, 'allowlist.json'), 'utf8')).findings;
let result;
try {
  const quiet = console.log;
  console.log = () => undefined; // its translation fallback notice
  try {
    result = await run({
      input: stage,
      isRelative: true,
      isVerbose: false,
      customScan: [],
      // Needs the network (Electron's release list); the Electron version is pinned in package.json instead.
      excludeFromScan: ['availablesecurityfixesglobalcheck'],
      parserPlugins: [],
    }, false);
  } finally {
    console.log = quiet;
  }
} finally {
  rmSync(stage, { recursive: true, force: true });
}

const rank = (level) => ({ INFORMATIONAL: 0, LOW: 1, MEDIUM: 2, HIGH: 3 })[level] ?? 0;
const problems = [];
const used = new Set();
for (const error of result.errors) {
  if (!error.tolerable) problems.push(`could not parse ${error.file}: ${error.message}`);
}
console.log(`Electronegativity ${require('@doyensec/electronegativity/package.json').version}: ${result.atomicChecks} checks and ${result.globalChecks} global checks over electron/, renderer/index.html and package.json.`);
for (const issue of result.issues) {
  const severity = issue.severity.name ?? String(issue.severity);
  const confidence = issue.confidence.name ?? String(issue.confidence);
  const where = `${issue.file}:${issue.location.line}:${issue.location.column}`;
  const serious = rank(severity) >= rank('MEDIUM');
  const entry = allow.find((a) => a.id === issue.id && a.file === issue.file);
  if (entry) used.add(entry);
  const verdict = !serious ? 'info' : entry ? 'allowed' : 'FAIL';
  console.log(`  ${verdict.padEnd(7)} ${issue.id} ${severity}/${confidence} ${where} — ${issue.description}`);
  if (serious && !entry) problems.push(`${issue.id} (${severity}) at ${where}: ${issue.description}`);
}
for (const entry of allow) {
  if (!used.has(entry)) problems.push(`the allow-list entry ${entry.id} in ${entry.file} matches no finding any more; remove it.`);
}
if (problems.length) {
  console.error(`Electronegativity: ${problems.length} problem(s):`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exit(1);
}
console.log('Electronegativity: no high or medium finding outside the reviewed allow-list.');
