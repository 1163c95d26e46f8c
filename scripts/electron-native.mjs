// Builds a SEPARATE Electron-ABI copy of better-sqlite3 into .electron-native/better_sqlite3.node for running the
// desktop app from the repository (electron/main.ts passes it as better-sqlite3's `nativeBinding`).
// node_modules/better-sqlite3/build is never touched: it stays the Node build that the tests, web mode and the CLI
// load. Packaged apps do not use this file (electron-builder rebuilds better-sqlite3 for Electron when packaging).
//
//   node scripts/electron-native.mjs        prints the outcome, exits 0 or 1
//   import { ensureElectronNative } ...     resolves { ok: true, path } or { ok: false, reason }
//
// Needs the network once per Electron/better-sqlite3 version (a prebuilt binary from better-sqlite3's GitHub
// releases, or else Electron's headers to compile against). Offline it fails within the child timeout and says so.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const DEFAULT_REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HEADERS_URL = 'https://electronjs.org/headers';
const BINARY = 'better_sqlite3.node';

/**
 * Ensures .electron-native/better_sqlite3.node matches the installed Electron and better-sqlite3.
 * @param {{ quiet?: boolean, repo?: string, timeoutMs?: number }} [options]
 * @returns {Promise<{ ok: true, path: string } | { ok: false, reason: string }>}
 */
export async function ensureElectronNative({ quiet = false, repo = DEFAULT_REPO, timeoutMs = 120_000 } = {}) {
  const say = (message) => {
    if (!quiet) console.error(`[electron-native] ${message}`);
  };
  const outDir = path.join(repo, '.electron-native');
  const target = path.join(outDir, BINARY);
  const stampFile = path.join(outDir, 'stamp.json');
  const logFile = path.join(outDir, 'build.log');

  const electron = readJson(path.join(repo, 'node_modules/electron/package.json'));
  const betterSqlite = readJson(path.join(repo, 'node_modules/better-sqlite3/package.json'));
  if (!electron) return fail('Electron is not installed in node_modules; run npm install first.');
  if (!betterSqlite) return fail('better-sqlite3 is not installed in node_modules; run npm install first.');
  const abi = readText(path.join(repo, 'node_modules/electron/abi_version'))?.trim() ?? null;
  const stamp = { electron: electron.version, betterSqlite3: betterSqlite.version, platform: process.platform, arch: process.arch, abi };

  if (existsSync(target) && sameStamp(readJson(stampFile), stamp)) {
    say(`up to date for Electron ${stamp.electron} (${target}).`);
    return { ok: true, path: target };
  }

  mkdirSync(outDir, { recursive: true });
  const work = path.join(outDir, `tmp-${process.pid}-${Date.now().toString(36)}`);
  const pkgDir = path.join(work, 'better-sqlite3');
  const log = [];
  const cleanUp = () => rmSync(work, { recursive: true, force: true });

  try {
    // A private copy without build/, so nothing the steps below do can reach node_modules/better-sqlite3/build.
    const source = path.join(repo, 'node_modules/better-sqlite3');
    const sourceBuild = path.join(source, 'build');
    cpSync(source, pkgDir, {
      recursive: true,
      filter: (file) => file !== sourceBuild && !file.startsWith(sourceBuild + path.sep),
    });
    const env = electronBuildEnv(process.env);
    const built = path.join(pkgDir, 'build', 'Release', BINARY);
    const run = (label, command, args) => runStep({ label, command, args, cwd: pkgDir, env, timeoutMs, quiet, log });

    const prebuildInstall = path.join(repo, 'node_modules/prebuild-install/bin.js');
    let outcome = 'no prebuilt binary step ran';
    if (existsSync(prebuildInstall)) {
      say(`downloading a prebuilt better-sqlite3 ${stamp.betterSqlite3} for Electron ${stamp.electron}...`);
      const prebuilt = await run('prebuild-install', process.execPath, [
        prebuildInstall, '--runtime', 'electron', '--target', stamp.electron, '--arch', process.arch, '--platform', process.platform,
      ]);
      outcome = prebuilt.ok ? 'downloaded' : `no prebuilt binary (${prebuilt.why})`;
    }

    if (!existsSync(built)) {
      say('building better-sqlite3 from source against the Electron headers (about a minute)...');
      const localGyp = path.join(repo, 'node_modules/node-gyp/bin/node-gyp.js');
      const gypArgs = [
        'rebuild', '--release', '--runtime=electron', `--target=${stamp.electron}`, `--arch=${process.arch}`,
        `--dist-url=${HEADERS_URL}`, `--devdir=${path.join(outDir, 'gyp')}`,
      ];
      const compiled = existsSync(localGyp)
        ? await run('node-gyp', process.execPath, [localGyp, ...gypArgs])
        : await run('node-gyp', process.platform === 'win32' ? 'npm.cmd' : 'npm', ['exec', '--yes', '--', 'node-gyp@latest', ...gypArgs]);
      if (!compiled.ok || !existsSync(built)) {
        writeLog(logFile, log);
        return fail(
          `Could not get an Electron ${stamp.electron} build of better-sqlite3 ${stamp.betterSqlite3}: ${outcome}, and compiling it failed (${compiled.ok ? 'no binary was produced' : compiled.why}); details in ${path.relative(repo, logFile)}.`,
        );
      }
    }

    if (builtFor(built, abi) === 'node') {
      writeLog(logFile, log);
      return fail('The binary was built for Node instead of Electron (is npm_config_nodedir set?), so it was not installed.');
    }

    const staging = `${target}.${process.pid}.tmp`;
    cpSync(built, staging);
    renameSync(staging, target);
    writeFileSync(stampFile, `${JSON.stringify(stamp, null, 2)}\n`);
    rmSync(logFile, { force: true });
    say(`ready: ${target}`);
    return { ok: true, path: target };
  } catch (error) {
    writeLog(logFile, log.concat(`${String(error?.stack ?? error)}\n`));
    return fail(`Could not prepare the Electron build of better-sqlite3: ${firstLine(error)}.`);
  } finally {
    cleanUp();
    removeIfEmpty(path.join(outDir, 'gyp'));
  }
}

function removeIfEmpty(dir) {
  try {
    if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true });
  } catch {
    // not there
  }
}

function fail(reason) {
  return { ok: false, reason };
}

/**
 * The environment for the child processes. ~/.npmrc on some machines sets `nodedir=/usr`; npm exports it to every
 * script as npm_config_nodedir, and node-gyp then compiles against the local Node headers no matter what
 * --target says: a Node binary under an Electron name. Dropping it (and any other npm_config_ that pins a
 * runtime, target or headers) makes --target/--dist-url decide. For the `npm exec` fallback, which reads
 * ~/.npmrc again itself, the empty value overrides the user config (environment beats userconfig).
 */
export function electronBuildEnv(source) {
  const pinned = new Set(['npm_config_nodedir', 'npm_config_target', 'npm_config_runtime', 'npm_config_disturl', 'npm_config_dist_url', 'npm_config_arch', 'npm_config_platform', 'npm_config_build_from_source']);
  const env = {};
  for (const [key, value] of Object.entries(source)) {
    if (!pinned.has(key.toLowerCase()) && value !== undefined) env[key] = value;
  }
  env.npm_config_nodedir = '';
  return env;
}

/** Runs one child in its own process group, so a timeout can stop the compiler it started too. */
function runStep({ label, command, args, cwd, env, timeoutMs, quiet, log }) {
  return new Promise((resolve) => {
    log.push(`$ ${label}: ${command} ${args.join(' ')}\n`);
    let child;
    try {
      child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32', windowsHide: true });
    } catch (error) {
      resolve({ ok: false, why: `${label} could not start: ${firstLine(error)}` });
      return;
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killTree(child);
    }, timeoutMs);
    const collect = (chunk) => {
      const text = chunk.toString();
      log.push(text);
      if (!quiet) process.stderr.write(text);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, why: `${label} could not start: ${firstLine(error)}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) resolve({ ok: false, why: `${label} gave up after ${Math.round(timeoutMs / 1000)} s, probably no network` });
      else if (code === 0) resolve({ ok: true });
      else resolve({ ok: false, why: `${label} exited with ${code ?? signal}` });
    });
  });
}

function killTree(child) {
  try {
    if (process.platform === 'win32') child.kill('SIGKILL');
    else process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * 'node' when the file loads in this Node (it was built for Node, whatever it is called), 'electron' when Node
 * refuses it for being built against Electron's module version, 'unknown' otherwise.
 */
function builtFor(file, abi) {
  if (abi !== null && abi === process.versions.modules) return 'unknown';
  try {
    createRequire(import.meta.url)(file);
    return 'node';
  } catch (error) {
    return abi !== null && String(error?.message).includes(`NODE_MODULE_VERSION ${abi}`) ? 'electron' : 'unknown';
  }
}

function sameStamp(recorded, wanted) {
  return recorded !== null && Object.keys(wanted).every((key) => recorded[key] === wanted[key]);
}

function readText(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function readJson(file) {
  const text = readText(file);
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function writeLog(file, lines) {
  try {
    writeFileSync(file, lines.join(''));
  } catch {
    // the log is a courtesy
  }
}

function firstLine(error) {
  return String(error instanceof Error ? error.message : error).split('\n', 1)[0].replace(/[.\s]+$/, '');
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const outcome = await ensureElectronNative({ quiet: process.argv.includes('--quiet') });
  if (outcome.ok) {
    console.log(`Electron build of better-sqlite3: ${outcome.path}`);
  } else {
    console.error(outcome.reason);
    process.exitCode = 1;
  }
}
