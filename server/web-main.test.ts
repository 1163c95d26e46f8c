// Web mode's start as a GM meets it, in a real process (the built dist/server/web.mjs): a port already taken, and a
// database another GM Workstation holds, each end in one sentence, exit code 1, and the database's lock released.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';
import { openApp } from './app.ts';

const root = join(import.meta.dirname, '..');
const webMain = pathToFileURL(join(root, 'dist', 'server', 'web.mjs')).href;

let dir: TempDir;
let taken: Server | null = null;
beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--node-only', '--quiet'], { cwd: root, stdio: 'inherit' });
}, 120_000);
beforeEach(() => {
  dir = tempDir('gmw-web-main-');
});
afterEach(async () => {
  await new Promise<void>((done) => (taken ? taken.close(() => done()) : done()));
  taken = null;
  dir.remove();
});

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run web -- <args>` without the build step: runWebMode from the built bundle, in its own process. */
function runWeb(args: string[]): Promise<Ended> {
  const script = `const { runWebMode } = await import(${JSON.stringify(webMain)}); await runWebMode(${JSON.stringify(args)});`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: dir.path, env: { PATH: process.env['PATH'] ?? '', HOME: dir.path } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) => child.on('close', (code) => {
    clearTimeout(killer);
    resolve({ code, stdout, stderr });
  }));
}

function takePort(): Promise<number> {
  return new Promise((resolve) => {
    taken = createServer();
    taken.listen(0, '127.0.0.1', () => resolve((taken!.address() as { port: number }).port));
  });
}

describe('web mode’s start', () => {
  it('says a port in use in one sentence naming it and --port, exits 1 and releases the database', async () => {
    const port = await takePort();
    const databasePath = dir.file();
    const ended = await runWeb(['--port', String(port), '--db', databasePath]);
    expect(ended.stderr).toBe(`Port ${port} is already in use on this machine; start with --port <another number>, or leave --port out to let the system choose.\n`);
    expect(ended.stdout).toBe('');
    expect(ended.code).toBe(1);
    expect(existsSync(`${databasePath}.lock`)).toBe(false);
    // The database was opened and closed cleanly: the next start takes it at once.
    openApp({ databasePath, transport: 'cli', version: 'test', lock: 'cli' }).close();
  }, 60_000);

  it('says who holds the database, in the lock’s own sentence, and leaves the folder as it was', async () => {
    const databasePath = dir.file();
    const holder = openApp({ databasePath, transport: 'web', version: 'test', lock: 'web' });
    try {
      const listing = readdirSync(dir.path).sort();
      const ended = await runWeb(['--db', databasePath]);
      expect(ended.stderr).toBe(`Another GM Workstation (web mode, pid ${process.pid}) is using this database; close it first.\n`);
      expect(ended.stdout).toBe('');
      expect(ended.code).toBe(1);
      expect(readdirSync(dir.path).sort()).toEqual(listing);
    } finally {
      holder.close();
    }
  }, 60_000);
});
