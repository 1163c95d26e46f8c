// The new-user check (.ci/run): the README's commands exactly, as someone trying the app for the first time runs
// them: a fresh empty HOME, no XDG_DATA_HOME, no GMW_DB, no --db, no npm settings. `npm start` (here it falls back
// to web mode: Electron's binary cannot be downloaded) must print an address that answers with the page; after
// Ctrl+C, `npm run gmw -- demo` and `npm run gmw -- list` must show the demo campaigns, one per registered ruleset,
// in the default place.
// Each step prints ✓ or ✗; the last line is `new-user check: N passed, N failed`, which .ci/run adds to its own.
import { build } from 'esbuild';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nodeBundle } from './node-bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Electron's download gives up after 180 s at most (scripts/start.mjs); the build and start come on top. */
const START_TIMEOUT_MS = 240_000;
const STOP_TIMEOUT_MS = 20_000;
const GMW_TIMEOUT_MS = 180_000;
/** The demo campaigns to expect: one per ruleset of the registry (core/rulesets/registry.ts), named by its demo. */
async function registeredDemoNames() {
  const folder = mkdtempSync(join(tmpdir(), 'gmw-registry-'));
  try {
    const outfile = join(folder, 'registry.mjs');
    await build({ ...nodeBundle({ version: 'check' }), entryPoints: [join(root, 'core/rulesets/registry.ts')], outfile });
    const { RULESETS } = await import(pathToFileURL(outfile).href);
    return RULESETS.map((ruleset) => ruleset.demo.name);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
const DEMO_NAMES = await registeredDemoNames();

const home = mkdtempSync(join(tmpdir(), 'gmw-new-user-'));
const dataFolder = join(home, '.local', 'share', 'gm-workstation');
const database = join(dataFolder, 'gm-workstation.sqlite');

/** A new user's environment: this HOME, and nothing that picks a database or carries npm's own settings. */
function newUserEnv() {
  const env = { ...process.env, HOME: home };
  for (const name of Object.keys(env)) {
    if (name === 'XDG_DATA_HOME' || name === 'GMW_DB' || name.toLowerCase().startsWith('npm_')) delete env[name];
  }
  return env;
}

let passed = 0;
let failed = 0;
const startedAt = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Runs one step: a pass when it returns, a fail (with its reason) when it throws. Later steps may depend on it. */
async function step(name, run) {
  const began = Date.now();
  try {
    const note = await run();
    passed += 1;
    console.log(`✓ ${name} (${seconds(began)})${note ? `: ${note}` : ''}`);
    return true;
  } catch (error) {
    failed += 1;
    console.log(`✗ ${name} (${seconds(began)}): ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

/** `npm start`, in its own process group so that stopping it reaches npm and everything under it, as Ctrl+C does. */
function startApp() {
  const child = spawn('npm', ['start'], { cwd: root, env: newUserEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const address = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address within ${START_TIMEOUT_MS / 1000} s; it printed:\n${output}`)), START_TIMEOUT_MS);
    const onData = (chunk) => {
      output += chunk;
      const found = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(output)?.[0];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`npm start ended (${signal ?? `exit code ${code}`}) before printing an address:\n${output}`));
    });
  });
  const interrupt = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  return { address, exited, interrupt, output: () => output };
}

/** What a browser does with the printed address: trades the token for the cookie, then loads the page. */
async function openPage(address) {
  const launch = await fetch(address, { redirect: 'manual' });
  if (launch.status !== 303) throw new Error(`the address answered ${launch.status}, not 303 with the page's cookie`);
  const cookie = (launch.headers.get('set-cookie') ?? '').split(';')[0];
  const page = await fetch(new URL(launch.headers.get('location') ?? '/', address), { headers: { Cookie: cookie } });
  const html = await page.text();
  if (page.status !== 200 || !html.includes('<div id="app">')) throw new Error(`the page answered ${page.status} without the app`);
}

function npmRun(args) {
  const result = spawnSync('npm', ['run', ...args], { cwd: root, env: newUserEnv(), encoding: 'utf8', timeout: GMW_TIMEOUT_MS });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`npm run ${args.join(' ')} exited with ${result.status}:\n${result.stdout}${result.stderr}`);
  return result;
}

console.log(`New-user check: HOME=${home}, no XDG_DATA_HOME, no GMW_DB, no --db.`);
const app = startApp();
let address = '';
const started = await step('npm start prints the address to open', async () => {
  address = await app.address;
  const fallback = app.output().split('\n').find((line) => line.includes('Starting GM Workstation in web mode instead'));
  return fallback ? `web mode (${fallback.trim()})` : 'started';
});
if (started) {
  await step('the address answers with the page', () => openPage(address));
  await step('the first start says where the data lives, and the database is in the default data folder', () => {
    if (!app.output().includes(`live in ${dataFolder}.`)) throw new Error(`it did not say the data lives in ${dataFolder}:\n${app.output()}`);
    if (!existsSync(database)) throw new Error(`no database at ${database}`);
  });
  await step('Ctrl+C stops it and leaves no lock behind', async () => {
    app.interrupt('SIGINT');
    const outcome = await Promise.race([app.exited, new Promise((resolve) => setTimeout(() => resolve(null), STOP_TIMEOUT_MS))]);
    if (!outcome) throw new Error(`still running ${STOP_TIMEOUT_MS / 1000} s after Ctrl+C`);
    const locks = existsSync(dataFolder) ? readdirSync(dataFolder).filter((name) => name.endsWith('.lock')) : [];
    if (locks.length) throw new Error(`left ${locks.join(', ')}`);
  });
}
// Whatever happened above, nothing of it keeps running.
app.interrupt('SIGKILL');
await step(`npm run gmw -- demo creates the ${DEMO_NAMES.length} demo campaigns, one per ruleset`, () => {
  const { stderr } = npmRun(['gmw', '--', 'demo']);
  if (!stderr.includes(`Created ${DEMO_NAMES.length} demo campaigns.`)) throw new Error(`it said: ${stderr}`);
});
await step('npm run gmw -- list shows them, from the same database', () => {
  const { stdout } = npmRun(['gmw', '--', 'list']);
  const missing = DEMO_NAMES.filter((name) => !stdout.includes(name));
  if (missing.length) throw new Error(`missing ${missing.join(', ')} in:\n${stdout}`);
  if (!existsSync(database)) throw new Error(`no database at ${database}`);
});

rmSync(home, { recursive: true, force: true });
console.log(`new-user check took ${seconds(startedAt)}`);
console.log(`new-user check: ${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
