// A new user's first start, as the README says it: an empty HOME, no XDG_DATA_HOME, no GMW_DB and no --db. Web
// mode creates the data folder, says where the data lives and serves the page; `gmw demo` and `gmw list` then work
// on the same database. Real processes on the built app, as a GM runs them.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';
import { RULESETS } from '../core/rulesets/registry.ts';

const root = join(import.meta.dirname, '..');
const gmwBin = join(root, 'dist', 'cli', 'gmw.cjs');

let home: TempDir;
let running: ChildProcess[] = [];
beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root, stdio: 'inherit' });
}, 180_000);
beforeEach(() => {
  home = tempDir('gmw-home-');
  running = [];
});
afterEach(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  home.remove();
});

/** A new user's environment: this HOME, and none of the variables that would pick another place. */
function newUserEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home.path };
  delete env['XDG_DATA_HOME'];
  delete env['GMW_DB'];
  return env;
}

/** `npm run web`'s command; resolves with everything printed up to the address, and the address. */
function startWebMode(args: string[] = []): Promise<{ output: string; address: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs'), '--web', ...args], { cwd: root, env: newUserEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const address = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(output)?.[0];
      if (!address) return;
      child.stdout!.off('data', onData);
      resolve({
        output,
        address,
        stop: () => new Promise((done) => {
          child.once('exit', () => done());
          child.kill('SIGINT');
        }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`web mode exited with ${code}:\n${output}`)));
  });
}

/** What a browser does with the printed address: trades the token for the cookie, then loads the page. */
async function openPage(address: string): Promise<string> {
  const launch = await fetch(address, { redirect: 'manual' });
  expect(launch.status).toBe(303);
  const cookie = launch.headers.get('set-cookie')!.split(';')[0]!;
  const page = await fetch(new URL(launch.headers.get('location') ?? '/', address), { headers: { Cookie: cookie } });
  expect(page.status).toBe(200);
  return page.text();
}

function gmw(args: string[]) {
  const result = spawnSync(process.execPath, [gmwBin, ...args], { cwd: home.path, env: newUserEnv(), encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('first start with an empty HOME', () => {
  it('web mode creates the data folder, says where the data lives, and serves the page; gmw demo and list use it', { timeout: 90_000 }, async () => {
    const dataFolder = join(home.path, '.local', 'share', 'gm-workstation');
    const database = join(dataFolder, 'gm-workstation.sqlite');
    const web = await startWebMode();
    expect(web.output).toContain(`Database: ${database}\n`);
    expect(web.output).toContain(`First start: a new database was created; your campaigns and their backups live in ${dataFolder}.\n`);
    expect(await openPage(web.address)).toContain('<div id="app">');
    await web.stop();
    expect(existsSync(database)).toBe(true);
    // The user's data folder is the user's alone.
    expect(statSync(dataFolder).mode & 0o777).toBe(0o700);
    expect(readdirSync(dataFolder).filter((name) => name.endsWith('.lock'))).toEqual([]);

    const demo = gmw(['demo']);
    expect(demo).toMatchObject({ code: 0, stderr: `Created ${RULESETS.length} demo campaigns.\n` });
    const listed = gmw(['list', '--json']);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((c) => c.name.split(':')[0])).toEqual(['Demo — Enigma', 'Demo — Teams', 'Demo — Factions', 'Demo — Cairn-Errant', 'Demo — Thrum', 'Demo — Any system']);

    // The second start is not a first start.
    const again = await startWebMode();
    expect(again.output).not.toContain('First start');
    await again.stop();
  });

  it('gmw demo alone creates the folder and says it created the database; a reading command creates nothing', { timeout: 60_000 }, () => {
    const database = join(home.path, '.local', 'share', 'gm-workstation', 'gm-workstation.sqlite');
    expect(gmw(['list'])).toMatchObject({ code: 4, stderr: `There is no database at ${database} yet (choose one with --db).\n` });
    expect(existsSync(join(home.path, '.local'))).toBe(false);
    expect(gmw(['demo'])).toMatchObject({ code: 0, stderr: `Created a new database at ${database}.\nCreated ${RULESETS.length} demo campaigns.\n` });
    expect(gmw(['list']).stdout).toContain('Demo — Thrum: Hollow Roads');
  });

  it('--db into a missing folder creates that folder when its parent exists, and refuses a deeper path with a sentence', { timeout: 60_000 }, () => {
    const campaigns = join(home.path, 'campaigns');
    expect(gmw(['campaigns:create', '{"name":"The Drowned Vault","rulesetId":"enigma"}', '--db', join(campaigns, 'new.sqlite')]).code).toBe(0);
    expect(existsSync(join(campaigns, 'new.sqlite'))).toBe(true);

    const typo = join(home.path, 'campaigns-typo', '2026', 'new.sqlite');
    expect(gmw(['demo', '--db', typo])).toMatchObject({
      code: 4,
      stderr: `Neither the folder ${join(home.path, 'campaigns-typo', '2026')} nor the folder ${join(home.path, 'campaigns-typo')} exists, so the database new.sqlite cannot be created there; create the folder first, or choose another place with --db.\n`,
    });
    expect(existsSync(join(home.path, 'campaigns-typo'))).toBe(false);
    mkdirSync(join(home.path, 'campaigns-typo'));
    expect(gmw(['campaigns:create', '{"name":"Barrow","rulesetId":"thrum"}', '--db', typo]).code).toBe(0);
    expect(existsSync(typo)).toBe(true);
  });
});
