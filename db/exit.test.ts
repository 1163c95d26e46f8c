// What a process lets go of when it ends (db/exit.ts), seen from outside: real child processes that exit normally
// or are killed, with the app's own modules bundled in.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeBundle } from '../scripts/node-bundle.mjs';
import { markerState } from './health.ts';
import { lockPathFor } from './lock.ts';
import { tempDir, type TempDir } from './testing/temp-db.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
let dir: TempDir;
beforeEach(() => {
  dir = tempDir('gmw-exit-');
});
afterEach(() => dir.remove());

/**
 * Bundles `source` (TypeScript resolved from the project's root) into dist/exit-test/, where better-sqlite3 is
 * found as the app finds it, and returns its path.
 */
async function bundle(name: string, source: string): Promise<string> {
  const outfile = join(root, 'dist', 'exit-test', `${name}.mjs`);
  await build({ stdin: { contents: source, resolveDir: root, loader: 'ts' }, outfile, ...nodeBundle({ version: 'exit-test' }), absWorkingDir: root });
  return outfile;
}

/** Runs the bundled child with `args`: its output, and its exit code once it ends (or is killed on its "ready"). */
function run(script: string, args: string[], killOnReady = false): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    if (killOnReady && stdout.includes('ready')) child.kill('SIGKILL');
  });
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ stdout, stderr, code })));
}

describe('letting go at exit', () => {
  it('runs the hooks newest first, each on its own, leaving out one taken back', async () => {
    const script = await bundle('hooks', `
      import { atExit } from './db/exit.ts';
      atExit(() => console.log('first'));
      atExit(() => { throw new Error('a hook that fails'); });
      const takenBack = atExit(() => console.log('taken back'));
      atExit(() => console.log('newest'));
      takenBack();
      process.exit(0);
    `);
    const { stdout, stderr, code } = await run(script, []);
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toEqual(['newest', 'first']);
    expect(stderr).toContain('letting go at exit failed');
    expect(stderr).toContain('a hook that fails');
  });

  it('a normal exit without close() marks the database closed and removes its lock; a kill leaves both', async () => {
    const script = await bundle('app', `
      import { openApp } from './server/app.ts';
      const app = openApp({ databasePath: process.argv[2], transport: 'web', version: 'exit-test', lock: 'web' });
      const created = await app.dispatch('campaigns:create', { name: 'Kept', rulesetId: 'enigma' });
      if ('error' in created) throw new Error(created.error.message);
      console.log('ready');
      if (process.argv[3] === 'exit') process.exit(0);
      setInterval(() => {}, 1000);
    `);
    const exiting = dir.file('exiting.sqlite');
    const normal = await run(script, [exiting, 'exit']);
    expect(normal.code).toBe(0);
    expect(normal.stdout).toContain('ready');
    expect(markerState(exiting)).toBe('closed');
    expect(existsSync(lockPathFor(exiting))).toBe(false);

    const killed = dir.file('killed.sqlite');
    await run(script, [killed, 'stay'], true);
    expect(markerState(killed)).toBe('open');
    expect(existsSync(lockPathFor(killed))).toBe(true);
  });
});
