// `npm start`: build what is needed, then open the desktop window. Where Electron's binary cannot be downloaded
// or started (as on machines without network), say so in one sentence and serve the same app in web mode.
// `npm run web` (`--web`) starts web mode on purpose. Other arguments (--db <path>, --port <n>) pass through.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIsCurrent } from './build-stamp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const webOnly = args.includes('--web');
const passThrough = args.filter((a) => a !== '--web');

// Asked here, in this process: an up-to-date build (every start but the first after a change) costs a walk of the
// sources' mtimes, not a second Node process and the bundler's load.
if (!buildIsCurrent(root)) {
  const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--quiet'], { stdio: 'inherit' });
  if (built.status !== 0) {
    console.error('GM Workstation could not be built; see the messages above.');
    process.exit(1);
  }
}

async function webMode(reason) {
  if (reason) console.log(`${reason} Starting GM Workstation in web mode instead.\n`);
  const { runWebMode } = await import(pathToFileURL(join(root, 'scripts/web-server.mjs')).href);
  await runWebMode(passThrough);
}

/** The Electron binary's path, or null when it is not installed and cannot be downloaded. */
function electronBinary() {
  // Electron ≥ 42 downloads its binary on first use; this asks in a child so a failed download stays quiet.
  const probe = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], {
    cwd: root, encoding: 'utf8', timeout: 180_000, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const path = probe.status === 0 ? probe.stdout.trim() : '';
  return path && existsSync(path) ? path : null;
}

async function desktop() {
  const binary = electronBinary();
  if (!binary) return webMode("The desktop window is not available here: Electron's binary could not be downloaded.");
  const { ensureElectronNative } = await import(pathToFileURL(join(root, 'scripts/electron-native.mjs')).href);
  const native = await ensureElectronNative({ quiet: true });
  if (!native.ok) return webMode(`The desktop window is not available here: ${native.reason}`);
  const startedAt = Date.now();
  const child = spawn(binary, [join(root, 'dist/electron/main.cjs'), ...passThrough], { cwd: root, stdio: ['ignore', 'inherit', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    if (Date.now() - startedAt > 10_000) process.stderr.write(chunk);
  });
  child.on('exit', (code) => {
    // A window that dies at once (no display, missing libraries) falls back to web mode.
    if (code !== 0 && Date.now() - startedAt < 10_000) {
      void webMode('The desktop window could not start on this machine (Electron exited at once).');
      if (process.env.GMW_DEBUG) console.error(stderr);
    } else process.exit(code ?? 0);
  });
}

await (webOnly ? webMode(null) : desktop());
