// What web mode and the desktop window evaluate before they serve: the dice notation library builds a whole math
// engine (mathjs) when it loads, about 0.2 s of a 0.4 s start, so it is imported only on demand (core/dice/dice.ts).
// esbuild splits each entry as the build bundles it; the chunks the entry imports statically are what a start runs.
import { build, type Metafile } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeBundle, webServerBundle } from '../scripts/node-bundle.mjs';
import { tempDir } from '../db/testing/temp-db.ts';

const root = join(import.meta.dirname, '..');
const LIBRARY = /node_modules\/(@dice-roller\/rpg-dice-roller|mathjs)\//;
/** zod's parts the app never calls: the locales but English, and reading JSON Schema. */
const ZOD_UNUSED = /node_modules\/zod\/v4\/(locales\/(?!en\.js)|classic\/from-json-schema)/;

/** Every source file in the chunks an output imports statically (itself included), and every one in the bundle. */
function sources(metafile: Metafile, entry: string): { atStart: string[]; all: string[] } {
  const outputs = metafile.outputs;
  const seen = new Set<string>();
  const queue = [Object.keys(outputs).find((out) => outputs[out]!.entryPoint === entry)!];
  while (queue.length > 0) {
    const out = queue.shift()!;
    if (seen.has(out)) continue;
    seen.add(out);
    for (const imported of outputs[out]!.imports) if (imported.kind === 'import-statement' && !imported.external) queue.push(imported.path);
  }
  const inputsOf = (outs: string[]) => outs.flatMap((out) => Object.keys(outputs[out]!.inputs));
  return { atStart: inputsOf([...seen]), all: inputsOf(Object.keys(outputs)) };
}

describe('a start', () => {
  it.each(['server/web-main.ts', 'electron/main.ts'])('of %s leaves the dice notation library (and mathjs) to a later import', async (entry) => {
    const dir = tempDir();
    try {
      const { metafile } = await build({
        ...nodeBundle({ version: 'test' }), absWorkingDir: root, entryPoints: [entry], outdir: dir.path, splitting: true, write: false, metafile: true,
      });
      const { atStart, all } = sources(metafile, entry);
      expect(all.some((input) => LIBRARY.test(input)), 'the library is in the bundle, loaded on demand').toBe(true);
      expect(atStart.filter((input) => LIBRARY.test(input)).slice(0, 3)).toEqual([]);
      expect(atStart).toContain('core/dice/dice.ts');
    } finally {
      dir.remove();
    }
  }, 60_000);

  // The build's own options: a bundle of one file held the library too, and Node compiled all of it at every start.
  it('of web mode, as scripts/build.mjs builds it, leaves the library out of the files a start reads, and zod\'s unused parts out of the bundle', async () => {
    const dir = tempDir();
    try {
      const { metafile } = await build({ ...webServerBundle({ version: 'test' }), absWorkingDir: root, outdir: dir.path, write: false, metafile: true });
      const { atStart, all } = sources(metafile, 'server/web-main.ts');
      expect(all.some((input) => LIBRARY.test(input)), 'the library is in the bundle, loaded on demand').toBe(true);
      expect(atStart.filter((input) => LIBRARY.test(input)).slice(0, 3)).toEqual([]);
      // zod is imported as a namespace (`import * as z`), so the bundle keeps what the app calls: imported as
      // `{ z }`, every locale and its JSON Schema reader came too (752 KiB of the 2.7 MB a start compiles).
      expect(atStart.filter((input) => ZOD_UNUSED.test(input)).slice(0, 3)).toEqual([]);
    } finally {
      dir.remove();
    }
  }, 60_000);
});
