// Builds what `npm start`, `npm run web`, the CLI and the E2E tests run: the renderer (Vite) and the Node-side
// bundles (esbuild). Skips the work when nothing changed since the last build (stamp in dist/, scripts/build-stamp.mjs).
import { nodeBundle, notationLibraryBundle, webServerBundle } from './node-bundle.mjs';
import { chmodSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { readStamp, sourcesModifiedAt, stampPath } from './build-stamp.mjs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
// What ships is a production build, whoever runs this: a test runner sets NODE_ENV=test for its children, and
// Vite then compiled Svelte in development mode (about 50 KiB more at start, dev-only checks on every update),
// which later runs took as up to date.
process.env.NODE_ENV = 'production';
/** The renderer through Vite, for production; `outDir` elsewhere than dist/renderer when given. */
async function buildRenderer(logLevel, outDir) {
  const { build: viteBuild } = await import('vite');
  await viteBuild({ configFile: join(root, 'vite.config.ts'), mode: 'production', logLevel, ...(outDir ? { build: { outDir, emptyOutDir: true } } : {}) });
}
/** `--renderer-out=<dir>`: only the renderer, into that folder, leaving dist/ and its stamp alone (a check). */
const rendererOut = process.argv.slice(2).find((a) => a.startsWith('--renderer-out='))?.slice('--renderer-out='.length);
if (rendererOut) {
  await buildRenderer('error', rendererOut);
  process.exit(0);
}
const quiet = args.has('--quiet');
const nodeOnly = args.has('--node-only');
const say = (line) => quiet || console.log(line);
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;

const stampFile = stampPath(root);
const stamp = readStamp(root);
const sourcesAt = sourcesModifiedAt(root);
const wanted = nodeOnly ? ['node'] : ['node', 'renderer'];
if (!args.has('--force') && wanted.every((part) => stamp[part] >= sourcesAt)) {
  say('Build is up to date.');
  process.exit(0);
}

const common = { sourcemap: 'linked', absWorkingDir: root };
// Loaded only when something is built: an up-to-date check (every `npm run gmw`) does not load the bundler.
const { build: esbuild } = await import('esbuild');

const started = Date.now();
await Promise.all([
  esbuild({ ...nodeBundle({ version, format: 'cjs' }), ...common, entryPoints: ['electron/main.ts'], outfile: 'dist/electron/main.cjs' }),
  // A sandboxed preload may only require 'electron': everything else is bundled in.
  esbuild({ ...nodeBundle({ version, format: 'cjs' }), ...common, entryPoints: ['electron/preload.ts'], outfile: 'dist/electron/preload.cjs', sourcemap: false }),
  esbuild({ ...webServerBundle({ version }), ...common }),
  esbuild({ ...notationLibraryBundle({ version }), ...common }),
  esbuild({ ...nodeBundle({ version, format: 'cjs' }), ...common, entryPoints: ['server/cli.ts'], outfile: 'dist/cli/gmw.cjs' }),
]);
// The CLI keeps its entry's `#!/usr/bin/env node` line and is executable, so package.json's "bin" can run it as `gmw`.
chmodSync(join(root, 'dist/cli/gmw.cjs'), 0o755);
say(`Built main, preload, web server and CLI in ${Date.now() - started} ms.`);
const next = { ...stamp, node: sourcesAt };

if (!nodeOnly) {
  const t = Date.now();
  await buildRenderer(quiet ? 'error' : 'warn');
  say(`Built the renderer in ${Date.now() - t} ms.`);
  next.renderer = sourcesAt;
}
mkdirSync(dirname(stampFile), { recursive: true });
writeFileSync(stampFile, JSON.stringify(next));
