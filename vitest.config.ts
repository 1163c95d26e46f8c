import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [svelte()],
  resolve: { conditions: process.env.VITEST ? ['browser'] : [] },
  test: {
    include: ['core/**/*.test.ts', 'db/**/*.test.ts', 'server/**/*.test.ts', 'electron/**/*.test.ts', 'renderer/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
  },
});
