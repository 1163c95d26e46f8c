// Writes the migration fixtures db/fixtures/vN.sql (see db/fixtures/generate.ts): bundles the generator with
// esbuild (migrations load as text, as in the app) and runs it under Node.
//   node scripts/make-fixtures.mjs           writes the fixture of every schema version that has none yet
//   node scripts/make-fixtures.mjs --force   rewrites all of them (only when an old fixture must change on purpose)
import { build } from 'esbuild';
import { nodeBundle } from './node-bundle.mjs';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Inside the project, so the bundle finds better-sqlite3 in node_modules.
const out = join(root, 'node_modules', '.cache', 'gmw-make-fixtures');
mkdirSync(out, { recursive: true });
try {
  const bundle = join(out, 'generate.mjs');
  await build({
    entryPoints: [join(root, 'db/fixtures/generate.ts')], outfile: bundle, ...nodeBundle({ version: 'fixtures' }),
    absWorkingDir: root,
  });
  const { makeFixtures } = await import(pathToFileURL(bundle).href);
  const written = await makeFixtures({ dir: join(root, 'db', 'fixtures'), force: process.argv.includes('--force') });
  console.log(written.length ? `Wrote ${written.map((p) => relative(root, p)).join(', ')}.` : 'Every schema version already has its fixture (--force rewrites them).');
} finally {
  rmSync(out, { recursive: true, force: true });
}
