// Whether dist/ is as new as the sources: the build writes a stamp (the newest source's mtime it built from), and
// `npm start` asks this in its own process before it starts, so an up-to-date start spawns no build and loads no
// bundler. The walk stats the app's source folders (a few hundred entries, about 5 ms on an idle machine; one by
// one, which measured cheaper here than the same stats in parallel through promises).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What a build reads: a change to any of them (tests aside) makes the next start build again. */
export const BUILD_INPUTS = ['core', 'db', 'server', 'electron', 'renderer', 'package.json', 'vite.config.ts', 'scripts/build.mjs', 'scripts/build-stamp.mjs', 'scripts/node-bundle.mjs'];

/** The newest modification time under `path` (0 when it is missing), node_modules and tests left out. */
function newestMtime(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.endsWith('.test.ts')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** The newest source's mtime under the app's build inputs. */
export function sourcesModifiedAt(root) {
  return Math.max(...BUILD_INPUTS.map((input) => newestMtime(join(root, input))));
}

export const stampPath = (root) => join(root, 'dist', '.build-stamp.json');

/** The stamp the last build wrote: the sources' mtime each part ('node', 'renderer') was built from. */
export function readStamp(root) {
  try {
    return JSON.parse(readFileSync(stampPath(root), 'utf8'));
  } catch {
    return {};
  }
}

/** Whether every part wanted was built from the sources as they are now. */
export function buildIsCurrent(root, parts = ['node', 'renderer']) {
  const stamp = readStamp(root);
  const sourcesAt = sourcesModifiedAt(root);
  return parts.every((part) => stamp[part] >= sourcesAt);
}
