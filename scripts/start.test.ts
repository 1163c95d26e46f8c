// `npm start` where Electron cannot run: one sentence, then web mode with its address. `npm run web`: web mode.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { loadFixture } from '../db/fixtures/fixture-db.ts';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';

const root = join(import.meta.dirname, '..');
let dir: TempDir;
afterEach(() => dir?.remove());

/** Runs start.mjs until it prints the web-mode address (or `until`), then stops it; returns everything it printed. */
function startUntilServing(args: string[], env: NodeJS.ProcessEnv, until = /http:\/\/127\.0\.0\.1:\d+\/\?token=/): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'scripts/start.mjs'), ...args], { cwd: root, env: { ...process.env, ...env } });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no ${until} within 100 s:\n${output}`));
    }, 100_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (until.test(output)) {
        clearTimeout(timer);
        child.once('exit', () => resolve(output));
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!/token=/.test(output)) reject(new Error(`start.mjs exited with ${code}:\n${output}`));
    });
  });
}

describe('npm start', () => {
  it('says in one sentence that the desktop window is unavailable and serves web mode instead', async () => {
    dir = tempDir();
    // Points Electron at a folder with no binary, as on a machine where it could not be downloaded.
    const output = await startUntilServing(['--db', dir.file()], { ELECTRON_OVERRIDE_DIST_PATH: join(dir.path, 'no-electron') });
    const lines = output.split('\n').filter((line) => line.trim() && !line.includes('npm warn'));
    expect(lines[0]).toBe("The desktop window is not available here: Electron's binary could not be downloaded. Starting GM Workstation in web mode instead.");
    expect(output).toMatch(/^ {2}http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/m);
    expect(output).toContain(`Database: ${dir.file()}`);
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toMatch(/Error:/);
  }, 120_000);

  it('starts web mode on purpose with --web', async () => {
    dir = tempDir();
    const output = await startUntilServing(['--web', '--db', dir.file()], {});
    expect(output).not.toContain('desktop window');
    expect(output).toContain('GM Workstation is running in web mode.');
  }, 120_000);

  it('fills in, in web mode, the roster changes a version before 7 did not store', async () => {
    dir = tempDir();
    loadFixture(6, dir.file());
    const output = await startUntilServing(['--web', '--db', dir.file()], {}, /roster changes filled in for \d+ event/);
    const db = new Database(dir.file(), { readonly: true });
    try {
      const { missing, total } = db.prepare('SELECT sum(roster_json IS NULL) AS missing, count(*) AS total FROM encounter_events').get() as { missing: number; total: number };
      expect(missing).toBe(0);
      expect(output).toContain(`roster changes filled in for ${total} events stored before version 7.`);
    } finally {
      db.close();
    }
  }, 120_000);
});
