// What web mode and the desktop window evaluate before they serve: the dice notation library builds a whole math
// engine (mathjs) when it loads, about 0.2 s of a 0.4 s start, so it is imported only on demand (core/dice/dice.ts).
// esbuild splits each entry as the build bundles it; the chunks the entry imports statically are what a start runs.
// Web mode's server as the build makes it is one CommonJS file, and the library one of its own.
import { build, type Metafile } from 'esbuild';
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nodeBundle, notationLibraryBundle, webServerBundle } from '../scripts/node-bundle.mjs';
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

  // The build's own options: web mode's server is one CommonJS file (scripts/web-server.mjs compiles it with V8's
  // code cache) and the library a bundle of its own, which the server requires when it imports the library.
  it('of web mode, as scripts/build.mjs builds it, leaves the library to a bundle of its own, and zod\'s unused parts out of the server', async () => {
    const dir = tempDir();
    try {
      const server = await build({ ...webServerBundle({ version: 'test' }), absWorkingDir: root, outfile: join(dir.path, 'web.cjs'), write: false, metafile: true });
      const [output, ...more] = Object.values(server.metafile.outputs).filter((out) => out.entryPoint === 'server/web-main.ts');
      expect(more).toEqual([]);
      const inputs = Object.keys(output!.inputs);
      expect(inputs).toContain('core/dice/dice.ts');
      expect(inputs.filter((input) => LIBRARY.test(input)).slice(0, 3)).toEqual([]);
      expect(output!.imports.filter((imported) => !imported.external)).toEqual([]);
      expect(output!.imports.filter((imported) => imported.path.includes('dice'))).toEqual([{ path: './dice-notation.cjs', kind: 'require-call', external: true }]);
      // zod is imported as a namespace (`import * as z`), so the bundle keeps what the app calls: imported as
      // `{ z }`, every locale and its JSON Schema reader came too (752 KiB of the 2.7 MB a start compiles).
      expect(inputs.filter((input) => ZOD_UNUSED.test(input)).slice(0, 3)).toEqual([]);
      const library = await build({ ...notationLibraryBundle({ version: 'test' }), absWorkingDir: root, outfile: join(dir.path, 'dice-notation.cjs'), write: false, metafile: true });
      expect(Object.values(library.metafile.outputs).flatMap((out) => Object.keys(out.inputs)).some((input) => LIBRARY.test(input))).toBe(true);
    } finally {
      dir.remove();
    }
  }, 60_000);

  // As `npm run web` runs it: the library is required only once the page has had its start, and then it is.
  it('of web mode, as scripts/web-server.mjs loads it, requires the library only after the start', async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--node-only', '--quiet'], { cwd: root, stdio: 'inherit' });
    const dir = tempDir();
    const bundle = join(root, 'dist', 'server', 'web.cjs');
    const script = `
      const { createRequire } = await import('node:module');
      const { loadWebServer } = await import(${JSON.stringify(pathToFileURL(join(root, 'scripts', 'web-server.mjs')).href)});
      const required = () => Object.keys(createRequire(${JSON.stringify(bundle)}).cache).filter((file) => /dice-notation|rpg-dice-roller|mathjs/.test(file));
      const server = loadWebServer(${JSON.stringify(bundle)});
      console.log('loaded: ' + JSON.stringify(required()));
      await server.exports.runWebMode(['--db', ${JSON.stringify(dir.file())}], { served: () => { console.log('served: ' + JSON.stringify(required())); process.exit(0); } });
      console.log('started: ' + JSON.stringify(required()));`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let output = '';
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const ended = new Promise((resolve) => child.once('exit', resolve));
      const address = await new Promise<URL>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const found = /http:\/\/\S+\?token=\S+/.exec(output);
          if (found) resolve(new URL(found[0]));
        });
        void ended.then(() => reject(new Error(output)));
      });
      const token = address.searchParams.get('token');
      await fetch(`${address.origin}/api/campaigns:list`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' });
      await ended;
      expect(output).toContain('loaded: []');
      expect(output).toContain('started: []');
      expect(output).toMatch(/served: \[".*dice-notation\.cjs"\]/);
    } finally {
      child.kill('SIGKILL');
      dir.remove();
    }
  }, 120_000);
});
