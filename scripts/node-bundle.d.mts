// Types for scripts/node-bundle.mjs, for the TypeScript that bundles with it (server/testing/crash-run.ts).
import type { BuildOptions } from 'esbuild';

export declare const ESM_REQUIRE_BANNER: string;
export declare function nodeBundle(options: { version: string; format?: 'esm' | 'cjs'; external?: string[] }): BuildOptions;
export declare function webServerBundle(options: { version: string }): BuildOptions;
export declare function notationLibraryBundle(options: { version: string }): BuildOptions;
