// One writer per database: an exclusive lock file beside it held for as long as a desktop window, a web-mode server
// or a CLI command has the database open. SQLite itself would let two processes write in turn, but each keeps warm
// encounter engines and change notices in memory that the other's writes would silently outdate, so a second GM
// Workstation on the same file is refused with a sentence (or waits for the first).
//
// The lock goes by the file's identity, not by the name typed: the lock file is `<real path>.lock` (symlinks to the
// file or to a folder on its way resolved, as SQLite itself resolves them for its -wal), and a database that has
// other names (hard links: another name, the same inode) is refused while any of them is held: hard links in the
// same folder are found by their device and inode, and on Linux a process holding SQLite's own lock on the inode
// (/proc/locks) through a name in any folder is found through /proc/<pid>/fd.
//
// The file is created with the `wx` flag (fails if it exists) and holds the holder's pid, when it took the lock,
// what kind of process it is and the database's real path, device and inode. A lock whose process is gone (a crash,
// a power cut, a kill -9) is taken over, and so is a lock file that stays empty or unreadable (a start that failed
// on a full disk): a holder always writes its record the moment it creates the file, and removes the file when
// that write fails.
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { atExit } from './exit.ts';

export type LockHolderKind = 'desktop' | 'web' | 'cli';

export interface LockHolder {
  pid: number;
  kind: LockHolderKind;
  /** When the lock was taken (ISO time). */
  startedAt: string;
  hostname: string;
  /** The database's real path, and its `device:inode` when it existed as the lock was taken (else ''). */
  database?: string;
  file?: string;
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

/**
 * A lock file that stays empty or unreadable this long (by its modification time) is a leftover, not a holder
 * writing its record: a holder writes it in the same instant it creates the file.
 */
export const DAMAGED_LOCK_GRACE_MS = 2000;

/** Refusal because another live process holds the lock; its message is the sentence to show. */
export class DatabaseLockedError extends Error {
  override name = 'DatabaseLockedError';
  /** Its message is a sentence for the GM (server/failure-sentences.ts). */
  readonly gmSentence = true;
  constructor(readonly holder: LockHolder | null, readonly lockPath: string) {
    super(lockedSentence(holder, lockPath));
  }
}

/**
 * The database's real path: symlinks resolved, of the file itself when it exists, else of its folder (the file is
 * about to be created there). Falls back to the absolute path when even the folder is missing.
 */
export function realDatabasePath(databasePath: string): string {
  const absolute = resolve(databasePath);
  try {
    return realpathSync(absolute);
  } catch {
    try {
      return join(realpathSync(dirname(absolute)), basename(absolute));
    } catch {
      return absolute;
    }
  }
}

export function lockPathFor(databasePath: string): string {
  return `${realDatabasePath(databasePath)}.lock`;
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
      database: typeof value.database === 'string' ? value.database : '',
      file: typeof value.file === 'string' ? value.file : '',
    };
  } catch {
    return null;
  }
}

/** The same lock record: one process's one taking of a lock. */
function sameHolder(a: LockHolder | null, b: LockHolder): boolean {
  return !!a && a.pid === b.pid && a.startedAt === b.startedAt && a.kind === b.kind && a.hostname === b.hostname;
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

/** A file's identity: what every name of it (hard links) shares. */
interface FileIdentity {
  dev: bigint;
  ino: bigint;
  /** How many names the file has. */
  nlink: bigint;
}

function identityOf(path: string): FileIdentity | null {
  try {
    const stat = statSync(path, { bigint: true });
    return stat.isFile() ? { dev: stat.dev, ino: stat.ino, nlink: stat.nlink } : null;
  } catch {
    return null;
  }
}

const fileLabel = (identity: FileIdentity | null) => (identity ? `${identity.dev}:${identity.ino}` : '');

/** Whether `path` names this file; `follow: false` does not count a symlink as a name of it. */
function sameFile(path: string, identity: FileIdentity, follow = true): boolean {
  try {
    const other = follow ? statSync(path, { bigint: true }) : lstatSync(path, { bigint: true });
    return other.dev === identity.dev && other.ino === identity.ino;
  } catch {
    return false;
  }
}

/** A live holder of the lock of one of the database's other names (hard links), with that lock's path. */
interface OtherHolder {
  holder: LockHolder;
  lockPath: string;
}

/** The live holder of `<name>.lock` when it is a lock on this very file (its record names the inode, or none). */
function liveHolderOf(lockPath: string, identity: FileIdentity): OtherHolder | null {
  const holder = readLockHolder(lockPath);
  if (!holder || !isHolderAlive(holder)) return null;
  if (holder.file && holder.file !== fileLabel(identity)) return null;
  return { holder, lockPath };
}

/** Hard links beside the database (the same device and inode under another name in its folder) that are held. */
function heldNameInFolder(realPath: string, identity: FileIdentity): OtherHolder | null {
  const folder = dirname(realPath);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return null;
  }
  for (const name of names) {
    const path = join(folder, name);
    // lstat: a symlink in the folder resolves to the real path, whose lock is the one already taken.
    if (path === realPath || name.endsWith('.lock') || !sameFile(path, identity, false)) continue;
    const held = liveHolderOf(`${path}.lock`, identity);
    if (held) return held;
  }
  return null;
}

/** Linux's device number as /proc/locks writes it: `major:minor` in hex. */
function procDevice(dev: bigint): string {
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  return `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}`;
}

/**
 * Linux: another process that has this file open through another name, anywhere, and holds that name's GM
 * Workstation lock. SQLite keeps a shared POSIX lock on a database in WAL mode for as long as it is open, and
 * /proc/locks lists it by device and inode; the holder's open files (/proc/<pid>/fd, readable for our own
 * processes) give the name it opened it by, and beside that name its lock record.
 */
function heldNameElsewhere(realPath: string, identity: FileIdentity): OtherHolder | null {
  if (process.platform !== 'linux') return null;
  let table: string;
  try {
    table = readFileSync('/proc/locks', 'utf8');
  } catch {
    return null;
  }
  const file = `${procDevice(identity.dev)}:${identity.ino}`;
  const pids = new Set<number>();
  for (const line of table.split('\n')) {
    const match = /^\d+:\s+(?:->\s+)?\S+\s+\S+\s+\S+\s+(\d+)\s+(\S+)\s/.exec(line);
    if (match && match[2] === file && Number(match[1]) !== process.pid) pids.add(Number(match[1]));
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // another user's process: its open files cannot be seen
    }
    for (const fd of fds) {
      let path: string;
      try {
        path = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (path === realPath || !path.startsWith('/') || !sameFile(path, identity)) continue;
      const held = liveHolderOf(`${path}.lock`, identity);
      if (held && held.holder.pid === pid) return held;
    }
  }
  return null;
}

/** Another name of the database (a hard link) that a live GM Workstation holds, if any. */
function heldUnderOtherName(realPath: string): OtherHolder | null {
  const identity = identityOf(realPath);
  if (!identity || identity.nlink <= 1n) return null;
  return heldNameInFolder(realPath, identity) ?? heldNameElsewhere(realPath, identity);
}

/**
 * Creates the lock file with our record. A record that cannot be written (a full disk) leaves no file behind:
 * an empty lock would refuse every later start.
 */
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
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(lockPath);
    } catch {
      // Already gone: nothing is left to refuse a later start.
    }
    throw error;
  }
  closeSync(fd);
  return true;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function canRead(path: string): boolean {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A lock file's identity and age, to remove only the very file judged stale. */
function lockFileState(lockPath: string): { ino: bigint; size: bigint; ageMs: number } | null {
  try {
    const stat = statSync(lockPath, { bigint: true });
    return { ino: stat.ino, size: stat.size, ageMs: Date.now() - Number(stat.mtimeMs) };
  } catch {
    return null;
  }
}

/**
 * Whether a lock file that holds no readable record is a leftover: old enough, or still unreadable after its
 * writer had its chance (a holder writes its record in the same instant it creates the file).
 */
function isDamagedLeftover(lockPath: string): boolean {
  const before = lockFileState(lockPath);
  // A file we may not read (another user's) is not judged: it may well be a live holder's.
  if (!before || !canRead(lockPath)) return false;
  if (before.ageMs < DAMAGED_LOCK_GRACE_MS) {
    sleepSync(100);
    if (readLockHolder(lockPath) !== null) return false;
  }
  const after = lockFileState(lockPath);
  return !!after && after.ino === before.ino && after.size === before.size;
}

function removeLockFile(lockPath: string): void {
  try {
    unlinkSync(lockPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** One attempt: the lock, or the live holder that keeps it. A stale lock is removed and the attempt repeated. */
function attempt(lockPath: string, holder: LockHolder): DatabaseLock | { heldBy: LockHolder | null } {
  for (let tries = 0; tries < 3; tries++) {
    if (tryCreate(lockPath, holder)) return makeLock(lockPath, holder);
    const current = readLockHolder(lockPath);
    if (current === null) {
      // Empty or damaged (a start that failed on a full disk), or being written this instant by another process:
      // taken over only when it stays so.
      if (isDamagedLeftover(lockPath) && readLockHolder(lockPath) === null) removeLockFile(lockPath);
      else if (tries > 0 && readLockHolder(lockPath) === null) return { heldBy: null };
      continue;
    }
    if (isHolderAlive(current)) return { heldBy: current };
    // Stale: remove it only if it is still the same file we judged (another process may have taken over meanwhile).
    if (!sameHolder(readLockHolder(lockPath), current)) continue;
    removeLockFile(lockPath);
  }
  return { heldBy: readLockHolder(lockPath) };
}

function makeLock(lockPath: string, holder: LockHolder): DatabaseLock {
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
      if (sameHolder(readLockHolder(lockPath), holder)) {
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

function holderRecord(kind: LockHolderKind, realPath: string): LockHolder {
  return { pid: process.pid, kind, startedAt: new Date().toISOString(), hostname: hostname(), database: realPath, file: fileLabel(identityOf(realPath)) };
}

/**
 * One attempt by the file's identity: our lock on its real path, then no other name of it held. Taking ours first
 * and looking second means two processes opening two names at once cannot both go on (both may refuse).
 */
function attemptByIdentity(realPath: string, kind: LockHolderKind): DatabaseLock | { heldBy: LockHolder | null; lockPath: string } {
  const lockPath = `${realPath}.lock`;
  const outcome = attempt(lockPath, holderRecord(kind, realPath));
  if (!('release' in outcome)) return { ...outcome, lockPath };
  const other = heldUnderOtherName(realPath);
  if (!other) return outcome;
  outcome.release();
  return { heldBy: other.holder, lockPath: other.lockPath };
}

/**
 * Takes the database's lock at once or throws DatabaseLockedError (its message is the sentence for the GM).
 * Also fails with the file system's own error when the folder cannot be written.
 */
export function acquireDatabaseLockSync(databasePath: string, kind: LockHolderKind): DatabaseLock {
  const outcome = attemptByIdentity(realDatabasePath(databasePath), kind);
  if ('release' in outcome) return outcome;
  throw new DatabaseLockedError(outcome.heldBy, outcome.lockPath);
}

/** Takes the database's lock, waiting up to `waitSeconds` for another process to let go of it. */
export async function acquireDatabaseLock(databasePath: string, kind: LockHolderKind, options: LockOptions = {}): Promise<DatabaseLock> {
  const realPath = realDatabasePath(databasePath);
  const deadline = Date.now() + Math.max(0, options.waitSeconds ?? 0) * 1000;
  const pollMs = options.pollMs ?? 250;
  let told = false;
  for (;;) {
    const outcome = attemptByIdentity(realPath, kind);
    if ('release' in outcome) return outcome;
    if (Date.now() >= deadline) throw new DatabaseLockedError(outcome.heldBy, outcome.lockPath);
    if (!told) {
      told = true;
      const who = outcome.heldBy ? `${KIND_LABEL[outcome.heldBy.kind]}, pid ${outcome.heldBy.pid}` : 'unknown process';
      options.onWait?.(`Another GM Workstation (${who}) is using this database; waiting up to ${options.waitSeconds} seconds for it to close.`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(1, deadline - Date.now()))));
  }
}
