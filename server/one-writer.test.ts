// One writer per database: the app takes the process lock when asked (web mode, desktop, CLI), a second opening
// is refused with a sentence naming the holder, and closing lets the next one in, whatever name the file is
// reached by (a symlink, a hard link beside it or in another folder).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, linkSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockPathFor } from '../db/lock.ts';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';
import { openApp, type AppService } from './app.ts';

let dir: TempDir | null = null;
let elsewhere: TempDir | null = null;
const opened: AppService[] = [];
afterEach(() => {
  for (const app of opened.splice(0)) app.close();
  dir?.remove();
  elsewhere?.remove();
  dir = null;
  elsewhere = null;
});

describe('one writer', () => {
  it('refuses a second process kind on a locked database, and lets it in once the first closes', async () => {
    dir = tempDir();
    const databasePath = dir.file();
    const web = openApp({ databasePath, transport: 'web', version: 'test', lock: 'web' });
    opened.push(web);
    expect(existsSync(lockPathFor(databasePath))).toBe(true);
    expect(() => openApp({ databasePath, transport: 'cli', version: 'test', lock: 'cli' })).toThrow(
      `Another GM Workstation (web mode, pid ${process.pid}) is using this database; close it first.`,
    );
    expect(await web.dispatch('campaigns:list', {})).toEqual({ result: [] });
    opened.pop()!.close();
    expect(existsSync(lockPathFor(databasePath))).toBe(false);
    const cli = openApp({ databasePath, transport: 'cli', version: 'test', lock: 'cli' });
    opened.push(cli);
    expect(await cli.dispatch('campaigns:list', {})).toEqual({ result: [] });
  });

  it('starts beside an empty lock file left by a start that failed on a full disk', async () => {
    dir = tempDir();
    const databasePath = dir.file();
    openApp({ databasePath, transport: 'cli', version: 'test' }).close();
    writeFileSync(lockPathFor(databasePath), '');
    const web = openApp({ databasePath, transport: 'web', version: 'test', lock: 'web' });
    opened.push(web);
    expect(await web.dispatch('campaigns:list', {})).toEqual({ result: [] });
    expect(readFileSync(lockPathFor(databasePath), 'utf8')).toContain(`"pid":${process.pid}`);
  });

  it('opens without a lock when none is asked for (tests, tools)', () => {
    dir = tempDir();
    opened.push(openApp({ databasePath: dir.file(), transport: 'cli', version: 'test' }));
    expect(existsSync(lockPathFor(dir.file()))).toBe(false);
  });
});

describe('one writer by the file, whatever its name', () => {
  const root = join(import.meta.dirname, '..');
  beforeAll(() => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--node-only', '--quiet'], { cwd: root, stdio: 'inherit' });
  }, 120_000);
  // Hashed in another process: closing any descriptor of the file in this one would drop the POSIX lock SQLite
  // holds on it for the holder (fcntl locks belong to the process and the inode), which the last case relies on.
  const sha256 = (path: string) =>
    execFileSync(process.execPath, ['-e', `const fs = require('node:fs'); const p = process.argv[1]; process.stdout.write(fs.existsSync(p) ? require('node:crypto').createHash('sha256').update(fs.readFileSync(p)).digest('hex') : 'missing')`, path], { encoding: 'utf8' });

  /** A database with a campaign, held by web mode (this process), as a GM has it open at the table. */
  async function heldDatabase(): Promise<{ databasePath: string; web: AppService }> {
    dir = tempDir();
    const databasePath = dir.file();
    openApp({ databasePath, transport: 'cli', version: 'test' }).close();
    const web = openApp({ databasePath, transport: 'web', version: 'test', lock: 'web' });
    opened.push(web);
    expect(await web.dispatch('campaigns:create', { name: 'The Drowned Vault', rulesetId: 'enigma' })).toHaveProperty('result');
    return { databasePath, web };
  }

  /** gmw writing through `name`, in its own process; refused as the same name would be, and nothing changed. */
  async function expectRefusedThrough(name: string, databasePath: string, web: AppService) {
    const before = [sha256(databasePath), sha256(`${databasePath}-wal`)];
    const run = spawnSync(process.execPath, [join(root, 'dist', 'cli', 'gmw.cjs'), 'campaigns:create', '{"name":"Through another name","rulesetId":"enigma"}', '--db', name], { encoding: 'utf8', env: { ...process.env, GMW_DB: '' } });
    expect({ code: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      code: 4,
      stdout: '',
      stderr: `Another GM Workstation (web mode, pid ${process.pid}) is using this database; close it first.\n`,
    });
    expect([sha256(databasePath), sha256(`${databasePath}-wal`)]).toEqual(before);
    expect(await web.dispatch('campaigns:list', {})).toMatchObject({ result: [{ name: 'The Drowned Vault' }] });
  }

  it('refuses gmw through a symlink to the open database', { timeout: 30_000 }, async () => {
    const { databasePath, web } = await heldDatabase();
    const link = join(dir!.path, 'link.sqlite');
    symlinkSync(databasePath, link);
    await expectRefusedThrough(link, databasePath, web);
  });

  it('refuses gmw through a hard link beside the open database', { timeout: 30_000 }, async () => {
    const { databasePath, web } = await heldDatabase();
    const hardLink = join(dir!.path, 'table-copy.sqlite');
    linkSync(databasePath, hardLink);
    await expectRefusedThrough(hardLink, databasePath, web);
    expect(existsSync(`${hardLink}.lock`)).toBe(false);
  });

  it('refuses gmw through a hard link in another folder (Linux: SQLite\'s own lock on the inode)', { timeout: 30_000 }, async (context) => {
    if (process.platform !== 'linux') context.skip();
    const { databasePath, web } = await heldDatabase();
    elsewhere = tempDir();
    const hardLink = join(elsewhere.path, 'gm-workstation.sqlite');
    linkSync(databasePath, hardLink);
    await expectRefusedThrough(hardLink, databasePath, web);
    expect(existsSync(`${hardLink}.lock`)).toBe(false);
  });
});
