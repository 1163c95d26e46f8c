import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

// The renderer: built to dist/renderer with relative asset paths, so the same files serve the desktop window
// (gmw://app/) and web mode (http://127.0.0.1:port/). No inline scripts: the CSP forbids them.
export default defineConfig({
  root: 'renderer',
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
