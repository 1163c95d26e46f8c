// A restore is checked and atomic (db/restore.ts), on real files: a backup with damaged pages is refused before
// anything is touched, and a process killed with SIGKILL at moments spread over a restore of a database of some
// tens of MB leaves the old database or the restored one, whole, never a mix or a cut-off file.
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, RecoveryStatus } from '../core/api/contract.ts';
import { backupDir, listBackups } from '../db/backup.ts';
import { markDatabaseClosed } from '../db/health.ts';
import { restoringPath } from '../db/restore.ts';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';
import { nodeBundle } from '../scripts/node-bundle.mjs';
import { openApp } from './app.ts';
import { closeAll, names, ok, sha256, start, stop } from './testing/open-apps.ts';
import { fillWithPages } from './testing/backup-pages.ts';

let dir: TempDir;
afterEach(() => {
  closeAll();
  dir?.remove();
});


function quickCheck(path: string): string {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return String(db.pragma('quick_check', { simple: true }));
  } finally {
    db.close();
  }
}

function campaignNames(path: string): string[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT name FROM campaigns ORDER BY name').all() as { name: string }[]).map((row) => row.name);
  } finally {
    db.close();
  }
}

describe('the Backups screen restores only a sound backup', { timeout: 30_000 }, () => {
  it('refuses a backup with damaged pages with a sentence; the live database is unchanged and goes on answering', async () => {
    dir = tempDir();
    // A database of ours first (a file holding only the filler would be another program's, and refused).
    openApp({ databasePath: dir.file(), transport: 'cli', version: 'test' }).close();
    fillWithPages(dir.file());
    const app = start(dir.file());
    await ok(app, 'campaigns:create', { name: 'In the backup', rulesetId: 'enigma' });
    const backup = await ok<{ name: string }>(app, 'backups:create');
    await ok(app, 'campaigns:create', { name: 'Only in the live database', rulesetId: 'enigma' });
    // Real bytes over four pages in the middle of the backup (the filler's table): its header still reads.
    const backupFile = join(backupDir(dir.file()), backup.name);
    const pageSize = 4096;
    const fd = openSync(backupFile, 'r+');
    writeSync(fd, randomBytes(4 * pageSize), 0, 4 * pageSize, 600 * pageSize);
    closeSync(fd);
    expect(quickCheck(backupFile)).not.toBe('ok');
    const live = sha256(dir.file());

    const answer = (await app.dispatch('backups:restore', { name: backup.name })) as Envelope<unknown>;
    expect(answer).toEqual({ error: { kind: 'refused', message: 'That backup failed its integrity check: it is damaged. Nothing was changed. Choose another one.' } });
    expect(sha256(dir.file())).toBe(live);
    // Refused before anything was made: no safety backup, no copy beside the database.
    expect(listBackups(dir.file()).map((b) => b.name)).toEqual([backup.name]);
    expect(existsSync(restoringPath(dir.file()))).toBe(false);
    expect(await names(app)).toEqual(['In the backup', 'Only in the live database']);
    await ok(app, 'campaigns:create', { name: 'After the refusal', rulesetId: 'enigma' });
    expect(await names(app)).toEqual(['After the refusal', 'In the backup', 'Only in the live database']);
  });
});

/** Bundles the child process (server/testing/restore-child.ts) the way the app's Node bundles are built. */
async function buildRestoreChild(): Promise<string> {
  const outfile = fileURLToPath(new URL('../dist/restore-kill/restore-child.cjs', import.meta.url));
  const { build } = await import('esbuild');
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [fileURLToPath(new URL('./testing/restore-child.ts', import.meta.url))],
    outfile,
    ...nodeBundle({ version: 'restore-test', format: 'cjs' }),
    absWorkingDir: fileURLToPath(new URL('..', import.meta.url)),
  });
  return outfile;
}

/** What the test watches for during a restore, each named by when it was first seen. */
type Phase = 'copying' | 'copied' | 'safetyBackup' | 'swapped';

/** When to kill: a time after the ask, or as soon as a phase is seen. */
type Kill = { afterMs: number } | { phase: Phase };

interface ChildRun {
  /** Milliseconds from the child's "restoring" to its reply (null when killed first). */
  restoredMs: number | null;
  killedAtMs: number | null;
  /** When each phase was first seen, in milliseconds after the ask. */
  seen: Partial<Record<Phase | 'torn', number>>;
  output: string;
}

interface Watch {
  databasePath: string;
  backupsFolder: string;
  /** The sizes the live file may have: the old database's and the restored one's. */
  wholeSizes: number[];
  backupBytes: number;
}

/**
 * Runs the restoring child and watches the files while it restores (every turn of the event loop). It kills the
 * child with SIGKILL as `kill` says (never, for null), and then also at once if the live file is ever seen at a
 * size neither the old database nor the restored one has (a file being rewritten in place: `torn`).
 */
function runChild(script: string, watch: Watch, backup: string, kill: Kill | null): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, '--db', watch.databasePath, '--backup', backup], { stdio: ['ignore', 'pipe', 'pipe'] });
    const run: ChildRun = { restoredMs: null, killedAtMs: null, seen: {}, output: '' };
    let asked = 0;
    let exited = false;
    const oldInode = statSync(watch.databasePath).ino;
    const killNow = () => {
      if (exited || run.killedAtMs !== null) return;
      run.killedAtMs = performance.now() - asked;
      child.kill('SIGKILL');
    };
    const see = (phase: Phase | 'torn') => {
      run.seen[phase] ??= performance.now() - asked;
      if (kill && (phase === 'torn' || ('phase' in kill && kill.phase === phase))) killNow();
    };
    const look = () => {
      if (exited) return;
      const copy = restoringPath(watch.databasePath);
      const copyBytes = sizeIfThere(copy);
      if (copyBytes !== null && copyBytes < watch.backupBytes) see('copying');
      if (copyBytes === watch.backupBytes) see('copied');
      if (readdirSync(watch.backupsFolder).some((name) => name.endsWith('.partial'))) see('safetyBackup');
      const live = existsSync(watch.databasePath) ? statSync(watch.databasePath) : null;
      if (!live || !watch.wholeSizes.includes(live.size)) see('torn');
      else if (live.ino !== oldInode) see('swapped');
      setImmediate(look);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      run.output += chunk.toString();
      if (!asked && run.output.includes('restoring\n')) {
        asked = performance.now();
        if (kill && 'afterMs' in kill) setTimeout(killNow, kill.afterMs);
        look();
      }
      const done = /restored (\d+)/.exec(run.output);
      if (done) run.restoredMs = Number(done[1]);
    });
    child.stderr.on('data', (chunk: Buffer) => (run.output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', () => {
      exited = true;
      resolve(run);
    });
  });
}

describe('a restore killed at any moment', () => {
  it('leaves the old database or the restored one, whole, after SIGKILLs spread over the restore', { timeout: 240_000 }, async () => {
    dir = tempDir('gmw-restore-kill-');
    const script = await buildRestoreChild();
    const db = dir.file();
    // 40 MB of random blobs in a real app database, so the copy takes long enough for kills to land inside it (10 MB
    // copied in 4 ms on an idle machine, faster than a kill could follow the first look at it).
    const app = start(db);
    await ok(app, 'campaigns:create', { name: 'In the backup', rulesetId: 'enigma' });
    stop(app);
    const raw = new Database(db);
    raw.exec('CREATE TABLE ballast (filler BLOB); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000) INSERT INTO ballast SELECT randomblob(4000) FROM n');
    raw.close();
    const again = start(db);
    const backup = await ok<{ name: string }>(again, 'backups:create');
    await ok(again, 'campaigns:create', { name: 'Only in the old database', rulesetId: 'enigma' });
    stop(again);
    const oldState = ['In the backup', 'Only in the old database'];
    const newState = ['In the backup'];
    const pristine = join(dir.path, 'old-database.sqlite');
    copyFileSync(db, pristine);
    const backupBytes = statSync(join(backupDir(db), backup.name)).size;

    /** The old database in place again, as a clean stop leaves it, and only the one backup in the folder. */
    const reset = () => {
      for (const leftover of [`${db}-wal`, `${db}-shm`, restoringPath(db), `${restoringPath(db)}-journal`]) rmSync(leftover, { force: true });
      copyFileSync(pristine, db);
      markDatabaseClosed(db);
      for (const name of readdirSync(backupDir(db))) if (name !== backup.name) rmSync(join(backupDir(db), name), { force: true });
    };

    const watch: Watch = { databasePath: db, backupsFolder: backupDir(db), wholeSizes: [statSync(pristine).size, backupBytes], backupBytes };

    // One restore without a kill: how long it takes, from the ask to the reply, and when each phase was seen.
    reset();
    const whole = await runChild(script, watch, backup.name, null);
    expect(whole.seen.torn, `the live file was seen being rewritten in place, ${Math.round(whole.seen.torn ?? 0)} ms into the restore`).toBeUndefined();
    expect(whole.restoredMs, whole.output).not.toBeNull();
    expect(campaignNames(db)).toEqual(newState);
    const duration = whole.restoredMs!;

    // Ten kills: one as soon as each phase is seen, the other six spread evenly over the restore's duration.
    const plan: Kill[] = [
      { phase: 'copying' },
      { phase: 'copied' },
      { phase: 'safetyBackup' },
      { phase: 'swapped' },
      ...[0, 1, 2, 3, 4, 5].map((i) => ({ afterMs: Math.round(((i + 0.5) / 6) * duration) })),
    ];
    const outcomes: { kill: string; at: number | null; state: 'old' | 'new'; copyLeft: number | null }[] = [];
    const killAndCheck = async (kill: Kill) => {
      reset();
      const run = await runChild(script, watch, backup.name, kill);
      const killName = 'phase' in kill ? kill.phase : `${kill.afterMs} ms`;
      const context = `kill at ${killName} (${run.killedAtMs === null ? 'not killed' : `${Math.round(run.killedAtMs)} ms`} of ${duration} ms), seen ${JSON.stringify(run.seen)}: ${run.output}`;
      expect(run.seen.torn, context).toBeUndefined();
      // The file opens, passes quick_check, and the app opens normally on it (the start-up check finds no damage).
      expect(quickCheck(db), context).toBe('ok');
      const copyLeft = sizeIfThere(restoringPath(db));
      const reopened = start(db);
      expect(await ok<RecoveryStatus>(reopened, 'recovery:status'), context).toEqual({ damaged: false });
      const found = await names(reopened);
      stop(reopened);
      expect([oldState, newState], context).toContainEqual(found);
      const at = run.killedAtMs === null ? null : Math.round(run.killedAtMs);
      outcomes.push({ kill: killName, at, state: found.length === oldState.length ? 'old' : 'new', copyLeft });
      return at !== null;
    };
    for (const kill of plan) {
      // A phase can pass between two looks on a busy machine (the copy took from under 1 ms to 190 ms here): up to
      // three tries to kill inside it.
      const tries = 'phase' in kill ? 3 : 1;
      for (let tried = 0; tried < tries; tried += 1) if (await killAndCheck(kill)) break;
    }
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    const summary =
      `restore of a ${mb(backupBytes)} backup took ${duration} ms (seen: ${JSON.stringify(whole.seen)}); kills: ` +
      outcomes.map((o) => `${o.kill} → killed at ${o.at ?? '-'} ms, ${o.state}${o.copyLeft !== null ? ` (copy left: ${mb(o.copyLeft)})` : ''}`).join('; ');
    console.log(summary);
    // The kills landed inside the copy, and both before and after the swap.
    expect(outcomes.some((o) => o.kill === 'copying' && o.at !== null && o.copyLeft !== null && o.copyLeft < backupBytes), summary).toBe(true);
    expect(outcomes.some((o) => o.state === 'old'), summary).toBe(true);
    expect(outcomes.some((o) => o.state === 'new'), summary).toBe(true);
  });
});

/** A file's size, or null when it is not there (it may go between a look and a stat while the child renames it). */
function sizeIfThere(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}
