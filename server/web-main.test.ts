// Web mode's start as a GM meets it, in a real process (the built dist/server/web.cjs): a port already taken, and a
// database another GM Workstation holds, each end in one sentence, exit code 1, and the database's lock released.
import { execFileSync, spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backupDir, listBackups } from '../db/backup.ts';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';
import { openApp } from './app.ts';
import { readOnlyNotice, readOnlySentence } from './failure-sentences.ts';

const root = join(import.meta.dirname, '..');
const webMain = pathToFileURL(join(root, 'scripts', 'web-server.mjs')).href;

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
function startWeb(args: string[], asNobody = false): ChildProcessWithoutNullStreams {
  const script = `const { runWebMode } = await import(${JSON.stringify(webMain)}); await runWebMode(${JSON.stringify(args)});`;
  const node = [process.execPath, '--input-type=module', '-e', script];
  const [command, ...rest] = asNobody ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', ...node] : node;
  return spawn(command!, rest, { cwd: dir.path, env: { PATH: process.env['PATH'] ?? '', HOME: dir.path } });
}

function runWeb(args: string[], asNobody = false): Promise<Ended> {
  const child = startWeb(args, asNobody);
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

  const isRoot = process.getuid?.() === 0 && spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0;

  it.skipIf(!isRoot)('opens a database it may read but not write, says so, and answers a write with the read-only sentence (run as nobody)', async () => {
    const folder = join(dir.path, 'shared');
    mkdirSync(folder);
    const databasePath = join(folder, 'campaign.sqlite');
    const made = openApp({ databasePath, transport: 'web', version: 'test' });
    expect(await made.dispatch('campaigns:create', { name: 'Kept', rulesetId: 'enigma' })).toHaveProperty('result');
    made.close();
    chmodSync(dir.path, 0o755);
    chmodSync(folder, 0o777);
    chmodSync(databasePath, 0o444);

    const child = startWeb(['--db', databasePath], true);
    let stdout = '';
    child.stderr.resume();
    try {
      const launch = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const match = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(stdout);
          if (match) resolve(match[0]);
        });
        child.on('close', () => reject(new Error(`web mode ended: ${stdout}`)));
      });
      expect(stdout).toContain(readOnlyNotice(databasePath));
      const url = new URL(launch);
      const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: url.hostname, port: url.port, path: '/api/campaigns:create', method: 'POST', headers: {
          Host: url.host, Authorization: `Bearer ${url.searchParams.get('token')}`, 'Content-Type': 'application/json',
        } }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end(JSON.stringify({ name: 'Refused', rulesetId: 'enigma' }));
      });
      expect(JSON.parse(reply.body)).toEqual({ error: { message: readOnlySentence(databasePath), kind: 'internal' } });
    } finally {
      child.kill('SIGTERM');
      await new Promise((done) => child.once('close', done));
    }
  }, 60_000);

  it.skipIf(!isRoot)('refuses a folder it cannot write with the read-only sentence, exit code 1 (run as nobody)', async () => {
    const folder = join(dir.path, 'locked-away');
    mkdirSync(folder);
    const databasePath = join(folder, 'campaign.sqlite');
    openApp({ databasePath, transport: 'web', version: 'test' }).close();
    chmodSync(dir.path, 0o755);
    chmodSync(folder, 0o755);
    const listing = readdirSync(folder).sort();
    const ended = await runWeb(['--db', databasePath], true);
    expect(ended.stderr).toBe(`${readOnlySentence(databasePath)}\n`);
    expect(ended.stdout).toBe('');
    expect(ended.code).toBe(1);
    expect(readdirSync(folder).sort()).toEqual(listing);
  }, 60_000);
});

describe("web mode's backup on start", () => {
  it('is made once the page has called, not while the browser loads it', async () => {
    const databasePath = dir.file('campaign.sqlite');
    const made = openApp({ databasePath, transport: 'web', version: 'test' });
    expect(await made.dispatch('campaigns:create', { name: 'Kept', rulesetId: 'enigma' })).toHaveProperty('result');
    made.close();

    const child = startWeb(['--db', databasePath]);
    let stdout = '';
    child.stderr.resume();
    try {
      const url = new URL(await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const match = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(stdout);
          if (match) resolve(match[0]);
        });
        child.on('close', () => reject(new Error(`web mode ended: ${stdout}`)));
      }));
      // A backup begun makes its folder at once (db/backup.ts): none is while no page has called.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(existsSync(backupDir(databasePath))).toBe(false);
      const status = await new Promise<number>((resolve, reject) => {
        const req = request({ host: url.hostname, port: url.port, path: '/api/recovery:status', method: 'POST', headers: {
          Host: url.host, Authorization: `Bearer ${url.searchParams.get('token')}`, 'Content-Type': 'application/json',
        } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end('{}');
      });
      expect(status).toBe(200);
      for (const deadline = Date.now() + 20_000; listBackups(databasePath).length === 0 && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(listBackups(databasePath).map((backup) => backup.reason)).toEqual(['start']);
    } finally {
      child.kill('SIGTERM');
      await new Promise((done) => child.once('close', done));
    }
  }, 60_000);
});
