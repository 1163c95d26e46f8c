import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The renderer: built to dist/renderer with relative asset paths, so the same files serve the desktop window
// (gmw://app/) and web mode (http://127.0.0.1:port/). No inline scripts: the CSP forbids them. The root is this
// folder's renderer/ whatever the working directory (a start from another folder builds too).
export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: './',
  plugins: [svelte()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    target: 'es2022',
    modulePreload: { polyfill: false },
  },
});
