import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

/** Migrations are .sql files imported as text (esbuild does the same with its text loader). */
const sqlAsText = {
  name: 'sql-as-text',
  transform(code: string, id: string) {
    return id.endsWith('.sql') ? { code: `export default ${JSON.stringify(code)};`, map: null } : null;
  },
};

export default defineConfig({
  plugins: [svelte(), sqlAsText],
  resolve: { conditions: process.env.VITEST ? ['browser'] : [] },
  test: {
    include: ['core/**/*.test.ts', 'db/**/*.test.ts', 'server/**/*.test.ts', 'electron/**/*.test.ts', 'renderer/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // Many tests spawn real processes (web mode, gmw, a killed writer) on a 2-core machine: a slow moment under
    // load is not a failure. No test asserts a time (speed is the benchmarks' job).
    testTimeout: 30_000,
  },
});
