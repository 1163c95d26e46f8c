// The renderer as it ships: built for production whoever runs the build (under a test runner, NODE_ENV=test, as here
// and in every child a test spawns, Vite used to compile Svelte in development mode) and from whatever folder (run
// from outside the project, the build looked for the renderer under the working directory and failed), and small at
// start.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';

const root = join(import.meta.dirname, '..');
let dir: TempDir;
let out: string;

beforeAll(() => {
  dir = tempDir();
  out = dir.file('renderer');
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), `--renderer-out=${out}`], { cwd: dir.path, env: { ...process.env, NODE_ENV: 'test' }, stdio: 'pipe' });
}, 120_000);
afterAll(() => dir?.remove());

/** The files a browser loads before the first screen: index.html, what it links, and what those import statically. */
function loadedAtStart(folder: string): string[] {
  const html = readFileSync(join(folder, 'index.html'), 'utf8');
  const files = new Set(['index.html']);
  const queue = [...html.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((m) => m[1]!);
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (files.has(file)) continue;
    files.add(file);
    if (!file.endsWith('.js')) continue;
    // A static import between chunks (`import"./x.js"`, `from"./x.js"`); dynamic `import("./x.js")` is left out.
    const code = readFileSync(join(folder, file), 'utf8');
    for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+)["']/g)) queue.push(join(file, '..', m[1]!));
  }
  return [...files];
}

describe('the renderer build', () => {
  it('compiles Svelte for production even when NODE_ENV says test', () => {
    const scripts = readdirSync(join(out, 'assets')).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const code = scripts.map((f) => readFileSync(join(out, 'assets', f), 'utf8')).join('\n');
    // Svelte's development build tags every component call with its source location (add_svelte_meta).
    expect(code).not.toContain('componentTag');
    expect(code).toContain('Full encounter log');
  });

  it('loads at most 250 KiB at start: every screen but the campaign list, and every ruleset, comes on first use', () => {
    const files = loadedAtStart(out);
    const kib = files.reduce((sum, file) => sum + statSync(join(out, file)).size, 0) / 1024;
    expect(files.some((f) => f.endsWith('.js')), files.join(', ')).toBe(true);
    expect(kib, `${kib.toFixed(1)} KiB at start: ${files.join(', ')}`).toBeLessThanOrEqual(250);
  });

  it('builds no schema at start: the campaign list loads neither zod nor the request schemas (about 95 KiB and their construction)', () => {
    const code = loadedAtStart(out).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(out, f), 'utf8')).join('\n');
    // Every zod schema carries its internals under `_zod`; the contract's schemas name their handlers.
    expect(code).not.toContain('_zod');
    expect(code).not.toContain('encounters:addFromCampaign');
  });
});
