// The esbuild options every Node bundle of the app shares (the build, the benchmarks, the crash test, the fixtures
// and the timing scripts): TypeScript bundled for Node 20, migrations as text, the version stamped in, Electron and
// better-sqlite3 left as normal requires. ESM bundles get a `require` (the native module and a few dependencies
// use it).
export const ESM_REQUIRE_BANNER = "import { createRequire as __gmwRequire } from 'node:module'; const require = __gmwRequire(import.meta.url);";

/**
 * @param {{ version: string, format?: 'esm' | 'cjs', external?: string[] }} options
 * @returns {import('esbuild').BuildOptions}
 */
export function nodeBundle({ version, format = 'esm', external = [] }) {
  return {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format,
    logLevel: 'warning',
    loader: { '.sql': 'text' },
    define: { __GMW_VERSION__: JSON.stringify(version) },
    external: ['electron', 'better-sqlite3', ...external],
    ...(format === 'esm' ? { banner: { js: ESM_REQUIRE_BANNER } } : {}),
  };
}

/**
 * Web mode's server (dist/server/web.mjs), split: what it imports only on demand (the dice notation library and
 * its math engine, about half the bundle's source) goes to a chunk of its own, which a start neither reads nor
 * compiles. A single file held it all, and Node compiled all of it before the first line ran.
 * @param {{ version: string }} options
 * @returns {import('esbuild').BuildOptions}
 */
export function webServerBundle({ version }) {
  return {
    ...nodeBundle({ version }),
    entryPoints: ['server/web-main.ts'],
    outdir: 'dist/server',
    entryNames: 'web',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    splitting: true,
  };
}
