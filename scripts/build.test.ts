// The renderer is built for production whoever runs the build: under a test runner (NODE_ENV=test, as here and in
// every child a test spawns) Vite used to compile Svelte in development mode.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../db/testing/temp-db.ts';

const root = join(import.meta.dirname, '..');

describe('the renderer build', () => {
  it('compiles Svelte for production even when NODE_ENV says test', () => {
    const dir = tempDir();
    try {
      const out = dir.file('renderer');
      execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), `--renderer-out=${out}`], { cwd: root, env: { ...process.env, NODE_ENV: 'test' }, stdio: 'pipe' });
      const scripts = readdirSync(join(out, 'assets')).filter((f) => f.endsWith('.js'));
      expect(scripts.length).toBeGreaterThan(0);
      const code = scripts.map((f) => readFileSync(join(out, 'assets', f), 'utf8')).join('\n');
      // Svelte's development build tags every component call with its source location (add_svelte_meta).
      expect(code).not.toContain('componentTag');
      expect(code).toContain('Full encounter log');
    } finally {
      dir.remove();
    }
  }, 120_000);
});
