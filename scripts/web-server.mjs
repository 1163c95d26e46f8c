// Web mode's server, dist/server/web.cjs, compiled with V8's code cache. Node 20 keeps no compiled code for ES
// modules or `require`, and compiling the server was most of its start (about 0.3 s of CPU for the bundle as an ES
// module). A `vm.Script` takes V8's cached data: the start compiles the bundle as CommonJS through one, and once
// the page's first calls were answered (the handlers' functions compiled too), writes what V8 compiled beside the
// bundle, in web.cjs.v8cache (docs/decisions.md says why there). A missing, foreign, damaged, refused or unwritable
// cache costs nothing but the compile: the start goes on from source, and replaces a cache it could not use.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** The server that `npm run web` runs. */
export const WEB_SERVER_BUNDLE = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'server', 'web.cjs');

/** A cache file: this line, a JSON line naming what it was made from, then V8's data. */
const CACHE_MAGIC = 'GM Workstation code cache 1\n';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The cache's file, beside the bundle. */
export const codeCacheFile = (bundleFile) => `${bundleFile}.v8cache`;

/**
 * V8's data from the cache file when it was made from exactly these bytes of the bundle and is whole; otherwise
 * undefined. V8 itself checks only the source's length, its own version and flags, and (in a release build) not
 * the data's checksum: a bundle rebuilt to the same length, or a damaged file, would run the wrong code.
 * @param {string} cacheFile
 * @param {string} bundleHash
 * @returns {Buffer | undefined}
 */
function readCodeCache(cacheFile, bundleHash) {
  let bytes;
  try {
    bytes = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  if (bytes.subarray(0, CACHE_MAGIC.length).toString('latin1') !== CACHE_MAGIC) return undefined;
  const headerEnd = bytes.indexOf(0x0a, CACHE_MAGIC.length);
  if (headerEnd < 0) return undefined;
  let header;
  try {
    header = JSON.parse(bytes.subarray(CACHE_MAGIC.length, headerEnd).toString('utf8'));
  } catch {
    return undefined;
  }
  const data = bytes.subarray(headerEnd + 1);
  return header?.bundle === bundleHash && header?.data === sha256(data) ? data : undefined;
}

/** Whether a process of this id runs (one we may not signal runs too). */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error?.code === 'EPERM';
  }
}

/** Removes the partial caches that starts killed while writing one left behind (`<cache>.<pid>.partial`, that process gone). */
function removeLeftPartials(cacheFile) {
  const prefix = `${basename(cacheFile)}.`;
  let names;
  try {
    names = readdirSync(dirname(cacheFile));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.partial')) continue;
    const pid = Number(name.slice(prefix.length, -'.partial'.length));
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !running(pid)) rmSync(join(dirname(cacheFile), name), { force: true });
  }
}

/** Writes the cache whole or not at all (a start reading it meanwhile sees the old file or the new one). */
function writeCodeCache(cacheFile, bundleHash, data) {
  removeLeftPartials(cacheFile);
  const partial = `${cacheFile}.${process.pid}.partial`;
  try {
    writeFileSync(partial, Buffer.concat([Buffer.from(`${CACHE_MAGIC}${JSON.stringify({ bundle: bundleHash, data: sha256(data) })}\n`), data]));
    renameSync(partial, cacheFile);
  } catch {
    // A folder this user may not write, a full disk: the next start compiles from source, as this one did.
    rmSync(partial, { force: true });
  }
}

/**
 * Compiles and runs the server bundle as CommonJS, with the code cache beside it when that cache fits.
 * `codeCache` says how the compile went: 'used', 'rejected' by V8, or 'none' (missing, foreign or damaged).
 * `keepCompiled()` writes what V8 has compiled so far as the new cache, unless the cache was used.
 * @param {string} [bundleFile]
 * @returns {{ exports: any, codeCache: 'used' | 'rejected' | 'none', keepCompiled: () => void }}
 */
export function loadWebServer(bundleFile = WEB_SERVER_BUNDLE) {
  const source = readFileSync(bundleFile);
  const bundleHash = sha256(source);
  const cacheFile = codeCacheFile(bundleFile);
  const cachedData = readCodeCache(cacheFile, bundleHash);
  const script = new Script(Module.wrap(source.toString('utf8')), { filename: bundleFile, cachedData });
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, createRequire(bundleFile), module, bundleFile, dirname(bundleFile));
  const codeCache = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  let kept = codeCache === 'used';
  return {
    exports: module.exports,
    codeCache,
    keepCompiled() {
      if (kept) return;
      kept = true;
      writeCodeCache(cacheFile, bundleHash, script.createCachedData());
    },
  };
}

/**
 * `npm run web`: the server loaded as above, run with `argv`; the cache is kept once the page's first calls were
 * answered (server/web-main.ts).
 * @param {readonly string[]} argv
 * @param {string} [bundleFile]
 */
export async function runWebMode(argv, bundleFile = WEB_SERVER_BUNDLE) {
  const server = loadWebServer(bundleFile);
  await server.exports.runWebMode(argv, { served: server.keepCompiled });
}
