// One writer per database: an exclusive lock file beside it (`<db>.lock`) held for as long as a desktop window,
// a web-mode server or a CLI command has the database open. SQLite itself would let two processes write in turn,
// but each keeps warm encounter engines and change notices in memory that the other's writes would silently
// outdate, so a second GM Workstation on the same file is refused with a sentence (or waits for the first).
//
// The file is created with the `wx` flag (fails if it exists) and holds the holder's pid, when it took the lock
// and what kind of process it is. A lock whose process is gone (a crash, a power cut, a kill -9) is taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { atExit } from './exit.ts';

export type LockHolderKind = 'desktop' | 'web' | 'cli';

export interface LockHolder {
  pid: number;
  kind: LockHolderKind;
  /** When the lock was taken (ISO time). */
  startedAt: string;
  hostname: string;
}

export interface DatabaseLock {
  readonly path: string;
  readonly holder: LockHolder;
  /** Removes the lock file if it is still ours; safe to call more than once. */
  release(): void;
}

export interface LockOptions {
  /** Wait up to this many seconds for another process to close the database (0, the default: refuse at once). */
  waitSeconds?: number;
  /** Told once, when waiting starts, with a sentence to print. */
  onWait?: (message: string) => void;
  /** How often to look again while waiting. */
  pollMs?: number;
}

const KIND_LABEL: Record<LockHolderKind, string> = { desktop: 'desktop app', web: 'web mode', cli: 'command line' };

/** Refusal because another live process holds the lock; its message is the sentence to show. */
export class DatabaseLockedError extends Error {
  override name = 'DatabaseLockedError';
  /** Its message is a sentence for the GM (server/failure-sentences.ts). */
  readonly gmSentence = true;
  constructor(readonly holder: LockHolder | null, readonly lockPath: string) {
    super(lockedSentence(holder, lockPath));
  }
}

export function lockPathFor(databasePath: string): string {
  return `${databasePath}.lock`;
}

export function lockedSentence(holder: LockHolder | null, lockPath: string): string {
  if (!holder) return `Another GM Workstation is using this database (its lock file ${lockPath} cannot be read); close it first, or delete that file if no other copy is running.`;
  const where = holder.hostname && holder.hostname !== hostname() ? ` on ${holder.hostname}` : '';
  return `Another GM Workstation (${KIND_LABEL[holder.kind] ?? holder.kind}, pid ${holder.pid}${where}) is using this database; close it first.`;
}

/** The holder written in a lock file, or null when the file is missing or unreadable. */
export function readLockHolder(lockPath: string): LockHolder | null {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0) return null;
    return {
      pid: value.pid,
      kind: value.kind === 'desktop' || value.kind === 'web' || value.kind === 'cli' ? value.kind : 'cli',
      startedAt: typeof value.startedAt === 'string' ? value.startedAt : '',
      hostname: typeof value.hostname === 'string' ? value.hostname : '',
    };
  } catch {
    return null;
  }
}

/** Linux only: when a process started (ms since the epoch), to notice a pid reused after the holder died. */
function processStartMs(pid: number): number | null {
  if (process.platform !== 'linux') return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses; the fields after the last ')' are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTicks = Number(fields[19]); // field 22 overall: starttime, in clock ticks since boot
    const boot = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    if (!boot || !Number.isFinite(startTicks)) return null;
    return Number(boot[1]) * 1000 + (startTicks / 100) * 1000; // USER_HZ is 100 on every Linux Node runs on
  } catch {
    return null;
  }
}

/** Whether the process named in a lock file still runs. A lock from another machine is always treated as live. */
export function isHolderAlive(holder: LockHolder): boolean {
  if (holder.hostname && holder.hostname !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const taken = Date.parse(holder.startedAt);
  const started = processStartMs(holder.pid);
  // A process that started after the lock was taken is a different program that got the same pid.
  if (started !== null && Number.isFinite(taken) && started > taken + 2000) return false;
  return true;
}

function tryCreate(lockPath: string, holder: LockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${JSON.stringify(holder)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** One attempt: the lock, or the live holder that keeps it. A stale lock is removed and the attempt repeated. */
function attempt(lockPath: string, holder: LockHolder): DatabaseLock | { heldBy: LockHolder | null } {
  for (let tries = 0; tries < 3; tries++) {
    if (tryCreate(lockPath, holder)) return makeLock(lockPath, holder);
    const current = readLockHolder(lockPath);
    if (current === null) {
      // Being written this instant by another process, or damaged: a damaged file is only taken over when it
      // stays unreadable, so look once more after the writer had its chance.
      if (tries === 0) continue;
      return { heldBy: null };
    }
    if (isHolderAlive(current)) return { heldBy: current };
    // Stale: remove it only if it is still the same file we judged (another process may have taken over meanwhile).
    if (JSON.stringify(readLockHolder(lockPath)) !== JSON.stringify(current)) continue;
    try {
      unlinkSync(lockPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return { heldBy: readLockHolder(lockPath) };
}

function makeLock(lockPath: string, holder: LockHolder): DatabaseLock {
  const mine = JSON.stringify(holder);
  let released = false;
  // On a normal exit that skipped release(); a crash leaves the file, which the next start finds stale.
  const forgetAtExit = atExit(() => lock.release());
  const lock: DatabaseLock = {
    path: lockPath,
    holder,
    release() {
      if (released) return;
      released = true;
      forgetAtExit();
      const current = readLockHolder(lockPath);
      if (current && JSON.stringify(current) === mine) {
        try {
          unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
      }
    },
  };
  return lock;
}

/**
 * Takes the database's lock at once or throws DatabaseLockedError (its message is the sentence for the GM).
 * Also fails with the file system's own error when the folder cannot be written.
 */
export function acquireDatabaseLockSync(databasePath: string, kind: LockHolderKind): DatabaseLock {
  const lockPath = lockPathFor(databasePath);
  const holder: LockHolder = { pid: process.pid, kind, startedAt: new Date().toISOString(), hostname: hostname() };
  const outcome = attempt(lockPath, holder);
  if ('release' in outcome) return outcome;
  throw new DatabaseLockedError(outcome.heldBy, lockPath);
}

/** Takes the database's lock, waiting up to `waitSeconds` for another process to let go of it. */
export async function acquireDatabaseLock(databasePath: string, kind: LockHolderKind, options: LockOptions = {}): Promise<DatabaseLock> {
  const lockPath = lockPathFor(databasePath);
  const deadline = Date.now() + Math.max(0, options.waitSeconds ?? 0) * 1000;
  const pollMs = options.pollMs ?? 250;
  let told = false;
  for (;;) {
    const holder: LockHolder = { pid: process.pid, kind, startedAt: new Date().toISOString(), hostname: hostname() };
    const outcome = attempt(lockPath, holder);
    if ('release' in outcome) return outcome;
    if (Date.now() >= deadline) throw new DatabaseLockedError(outcome.heldBy, lockPath);
    if (!told) {
      told = true;
      const who = outcome.heldBy ? `${KIND_LABEL[outcome.heldBy.kind]}, pid ${outcome.heldBy.pid}` : 'unknown process';
      options.onWait?.(`Another GM Workstation (${who}) is using this database; waiting up to ${options.waitSeconds} seconds for it to close.`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(1, deadline - Date.now()))));
  }
}
