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

/** The dice notation library, which builds a whole math engine (mathjs) as it loads: imported only on demand. */
const NOTATION_LIBRARY = '@dice-roller/rpg-dice-roller';
/** Its bundle, beside web mode's server: what the server's on-demand import of the library requires. */
const NOTATION_BUNDLE = 'dice-notation.cjs';

/** @type {import('esbuild').Plugin} */
const notationLibraryApart = {
  name: 'notation-library-apart',
  setup(build) {
    build.onResolve({ filter: /^@dice-roller\/rpg-dice-roller$/ }, () => ({ path: `./${NOTATION_BUNDLE}`, external: true }));
  },
};

/**
 * Web mode's server (dist/server/web.cjs): one CommonJS file, which scripts/web-server.mjs compiles through
 * `vm.Script` with V8's code cache (Node 20 caches no compiled code for ES modules or `require`). The dice notation
 * library and its math engine (about half the source) are a bundle of their own, dist/server/dice-notation.cjs
 * (`notationLibraryBundle`), required only when the library is imported: a start neither reads nor compiles them.
 * `import()` becomes `require`, which the server's wrapper is given: a `vm.Script` has no loader for `import()`.
 * @param {{ version: string }} options
 * @returns {import('esbuild').BuildOptions}
 */
export function webServerBundle({ version }) {
  return {
    ...nodeBundle({ version, format: 'cjs' }),
    entryPoints: ['server/web-main.ts'],
    outfile: 'dist/server/web.cjs',
    supported: { 'dynamic-import': false },
    plugins: [notationLibraryApart],
  };
}

/**
 * The dice notation library alone, as web mode's server requires it on demand (dist/server/dice-notation.cjs).
 * @param {{ version: string }} options
 * @returns {import('esbuild').BuildOptions}
 */
export function notationLibraryBundle({ version }) {
  return {
    ...nodeBundle({ version, format: 'cjs' }),
    entryPoints: [NOTATION_LIBRARY],
    outfile: `dist/server/${NOTATION_BUNDLE}`,
  };
}
