// The application service: the one handler table every transport calls (IPC, web mode, CLI). Each handler's
// input is validated with its schema; writes run one at a time in a BEGIN IMMEDIATE transaction; results travel
// as `{result}` or `{error}` and never as a thrown error.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { GmError, WRITE_HANDLERS, inputSchemas, type Envelope, type HandlerName, type HandlerResults } from '../core/api/contract.ts';
import { isHandlerName, type ChangeNotice } from '../core/api/names.ts';
import { openDatabase, writeTransaction, type Db } from '../db/connection.ts';
import { acquireDatabaseLockSync, type LockHolderKind } from '../db/lock.ts';
import { createBackup, pruneBackups } from '../db/backup.ts';
import { restoreBackup } from '../db/restore.ts';
import { existsSync, rmSync } from 'node:fs';
import { checkDatabaseHealth, damaged, judgeWal, keepOrphanWal, markDatabaseClosed, markDatabaseOpened, markDatabaseState, markerPath, moveWalAside, noteDatabaseFile, type DatabaseHealth } from '../db/health.ts';
import { identifyDatabaseFile, identifyWithoutWal, refuseUnlessOurs } from '../db/identify.ts';
import { atExit } from '../db/exit.ts';
import { DamagedDatabaseError, describeDamage, openRecoveryService, recoveryHandlers } from './recovery-mode.ts';
import { EncounterStore } from './encounter-store.ts';
import { GENERIC_FAILURE, logLine, sentenceFor } from './failure-sentences.ts';
import { backfillInBackground, type BackfillTiming } from './roster-backfill.ts';
import { campaignHandlers } from './handlers/campaigns.ts';
import { encounterHandlers } from './handlers/encounters.ts';
import { infoHandlers } from './handlers/info.ts';
import { backupHandlers } from './handlers/backups.ts';
import { ledgerHandlers } from './handlers/ledger.ts';
import { exportHandlers } from './handlers/exports.ts';
import { importHandlers } from './handlers/imports.ts';
import { demoHandlers } from './handlers/demo.ts';
import { ensureDatabaseFolder } from './paths.ts';

export { resolveDatabasePath } from './paths.ts';

export interface AppService {
  /** Validates and runs one handler; never throws; returns an envelope. */
  dispatch(name: string, input: unknown): Promise<Envelope<unknown>>;
  /** Subscribe to change notices; returns an unsubscribe function. */
  onChange(listener: (notice: ChangeNotice) => void): () => void;
  close(): void;
}

export interface OpenAppOptions {
  databasePath: string;
  transport: 'ipc' | 'web' | 'cli';
  nativeBinding?: string;
  version: string;
  /** Back up on start and at most every `autoBackupEveryMs` after changes (the desktop app and web mode). */
  autoBackup?: boolean;
  autoBackupEveryMs?: number;
  /**
   * With `autoBackup`: the start's backup waits for this (the desktop app and web mode: their page's first screen
   * shown), so that its worker and its copy of the file do not take the machine from the page as it loads. The first
   * change, or `startBackupLatestMs` (START_BACKUP_LATEST_MS) after the app opened, starts it sooner. Without it, it
   * starts as the app opens.
   */
  startBackupAfter?: Promise<unknown>;
  startBackupLatestMs?: number;
  /** Clock and id source, replaceable in tests. */
  now?: () => string;
  newId?: () => string;
  /**
   * Take the database's process lock (db/lock.ts) as this kind of process: one writer at a time. openApp throws
   * DatabaseLockedError (its message is the sentence) when another process holds it; close() releases it.
   */
  lock?: LockHolderKind;
  /**
   * The default data folder (web mode and the CLI): created with its parents when the database lives there. Any
   * other database's folder is created only when its parent exists (server/paths.ts).
   */
  dataFolder?: string;
  /**
   * Fill in, in the background, the roster changes of events stored before version 7 (server/roster-backfill.ts):
   * the desktop app and web mode. The CLI, which runs one command and exits, leaves them. Its timing is replaceable
   * in tests.
   */
  backfill?: boolean | BackfillTiming;
}

/** What every handler receives. */
export interface HandlerContext {
  db: Db;
  encounters: EncounterStore;
  options: OpenAppOptions;
  now: () => string;
  newId: () => string;
  /** Record what changed; notices go out after the transaction commits. */
  changed(notice: ChangeNotice): void;
  backups: {
    create(reason: string): Promise<import('../core/api/contract.ts').BackupSummary>;
    restore(name: string): Promise<{ restored: string; safetyBackup: string }>;
  };
}

type Inputs = { [N in HandlerName]: z.output<(typeof inputSchemas)[N]> };
export type Handler<N extends HandlerName> = (ctx: HandlerContext, input: Inputs[N]) => HandlerResults[N] | Promise<HandlerResults[N]>;
export type HandlerTable = { [N in HandlerName]: Handler<N> };

export const handlers: HandlerTable = {
  ...infoHandlers, ...campaignHandlers, ...encounterHandlers, ...ledgerHandlers, ...exportHandlers, ...importHandlers, ...demoHandlers, ...backupHandlers, ...recoveryHandlers,
};

/** The first schema problem as a sentence a GM can read. */
export function describeInvalid(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is malformed.';
  if (issue.code === 'unrecognized_keys') return `The request has fields this app does not know: ${issue.keys.join(', ')}.`;
  if (/[.!?]$/.test(issue.message)) return issue.message;
  // The field in words, never a dotted path: "The request's character name is not readable (…)".
  const named = issue.path.filter((key): key is string => typeof key === 'string').map((key) => key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase());
  const detail = issue.message.startsWith('Invalid') ? '' : `: ${issue.message}`;
  return named.length ? `The request's ${named.join(' ')} cannot be read${detail}.` : `The request cannot be read${detail}.`;
}

/**
 * Opens the app on its database. Before anything migrates, the file's health is checked (db/health.ts): a damaged
 * database starts the app in recovery mode (server/recovery-mode.ts) in the desktop app and web mode, and is
 * refused with one sentence by the CLI (DamagedDatabaseError, exit code 4).
 */
export function openApp(options: OpenAppOptions): AppService {
  // The folder first: the lock file is the first thing written beside the database.
  ensureDatabaseFolder(options.databasePath, options.dataFolder);
  const lock = options.lock ? acquireDatabaseLockSync(options.databasePath, options.lock) : null;
  if (!lock) return openChecked(options);
  let service: AppService;
  try {
    service = openChecked(options);
  } catch (error) {
    lock.release();
    throw error;
  }
  return {
    ...service,
    close() {
      try {
        service.close();
      } finally {
        lock.release();
      }
    },
  };
}

/**
 * What the file is, read-only, before anything writes to it (db/identify.ts): another program's database or a
 * newer GM Workstation's is refused with one sentence (NotOurDatabaseError, NewerSchemaError) and left as it
 * was. Then the -wal beside it (db/health.ts judgeWal): one written for another file is moved aside, never
 * applied. Then the health check: a damaged database opens the recovery service, a sound one the handler table.
 */
function openChecked(options: OpenAppOptions): AppService {
  const path = options.databasePath;
  const now = () => new Date(options.now?.() ?? Date.now());
  const orphan = keepOrphanWal(path, now());
  if (orphan) console.warn(`[gmw] ${orphan}`);
  const wal = judgeWal(path, options.nativeBinding);
  let health: DatabaseHealth;
  if (wal.state === 'foreign') {
    // Whose the file itself is decides first: somebody else's file is left alone, its -wal included.
    refuseUnlessOurs(path, identifyWithoutWal(path, options.nativeBinding));
    const notApplied = damaged('foreignWal', wal.detail);
    if (options.transport === 'cli') throw new DamagedDatabaseError(describeDamage(path, notApplied, options.nativeBinding));
    const keptAs = moveWalAside(path, 'foreign-wal', now());
    const alone = checkDatabaseHealth(path, options.nativeBinding);
    health = alone.state === 'damaged' && alone.kind !== 'walMissing'
      ? { ...alone, detail: `${alone.detail} (The -wal that was beside it is kept as ${keptAs}.)` }
      : { ...notApplied, sentence: `${notApplied.sentence.replace(/\.$/, '')}: it is kept as ${keptAs}.` };
  } else {
    refuseUnlessOurs(path, identifyDatabaseFile(path, options.nativeBinding));
    health = checkDatabaseHealth(path, options.nativeBinding);
  }
  if (health.state === 'damaged') {
    const status = describeDamage(path, health, options.nativeBinding);
    if (options.transport === 'cli') throw new DamagedDatabaseError(status);
    console.error(`[gmw] The database is damaged, so the app starts in recovery mode: ${status.sentence} (${health.detail})`);
    return openRecoveryService(options, status, () => openHealthyApp(options));
  }
  return openHealthyApp(options);
}

/** Writes between two checkpoints run after a reply (about 60 WAL pages for runner actions). */
export const CHECKPOINT_EVERY = 16;
/** The latest the start's backup waits for the first screen (`startBackupAfter`): a page never opened, a slow one. */
export const START_BACKUP_LATEST_MS = 10_000;

/**
 * After a complete checkpoint: one write that changes nothing (the header's user_version, which the app does not
 * use, set to the value it holds) makes SQLite start the WAL over now rather than in the next GM's write.
 */
function startWalOver(db: Db): void {
  db.pragma(`user_version = ${Number(db.pragma('user_version', { simple: true }))}`);
}

/** The handler table on a database that passed the health check (or on a new one). */
function openHealthyApp(options: OpenAppOptions): AppService {
  const open = () => {
    const db = openDatabase(options.databasePath, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
    // Opened again after a restore: the marker records the file now in place (the first open is marked below).
    if (inUse.has(options.databasePath)) markDatabaseOpened(options.databasePath);
    return db;
  };
  const listeners = new Set<(notice: ChangeNotice) => void>();
  let pending: ChangeNotice[] = [];
  let lastAutoBackup = 0;
  /** Backups and restores, one job at a time. */
  let exclusive: Promise<unknown> = Promise.resolve();
  /** Jobs on `exclusive` not yet settled (the background fill-in pauses while there are any). */
  let exclusiveJobs = 0;
  const exclusively = <T>(job: () => T | Promise<T>): Promise<T> => {
    exclusiveJobs += 1;
    const done = exclusive.then(job);
    exclusive = done.then(() => undefined, () => undefined).finally(() => { exclusiveJobs -= 1; });
    return done;
  };
  // Calls go on while a backup copies the file (on a worker thread, db/backup.ts). Only a restore, which closes the
  // database and puts another file in its place, makes the calls made meanwhile wait.
  let restoresPending = 0;
  let restoresDone: Promise<unknown> = Promise.resolve();
  /** Aborted on close: a backup's worker still copying stops, and its partial copy is removed. */
  const closing = new AbortController();
  const notify = (notice: ChangeNotice) => {
    for (const listener of listeners) listener(notice);
  };

  const ctx: HandlerContext = {
    db: open(),
    encounters: undefined as unknown as EncounterStore,
    options,
    now: options.now ?? (() => new Date().toISOString()),
    newId: options.newId ?? (() => randomUUID()),
    changed: (notice) => pending.push(notice),
    backups: {
      async create(reason) {
        const info = await createBackup(ctx.db, options.databasePath, new Date(), reason, options.nativeBinding, closing.signal);
        pruneBackups(options.databasePath, new Date(), options.nativeBinding);
        notify({ area: 'backups', id: info.name });
        return info;
      },
      async restore(name) {
        // db/restore.ts checks the backup first; once it has, the current database is backed up (so a restore can
        // itself be undone) and closed, and the checked copy is renamed over it.
        try {
          const safety = await restoreBackup(
            options.databasePath,
            name,
            async () => {
              const safety = await createBackup(ctx.db, options.databasePath, new Date(), 'before-restore', options.nativeBinding, closing.signal);
              closeForRestore();
              return safety;
            },
            options.nativeBinding,
          );
          notify({ area: 'campaigns', id: '*' });
          notify({ area: 'backups', id: name });
          return { restored: name, safetyBackup: safety.name };
        } finally {
          // Closed for the restore (whether or not it then succeeded): opened again, on whatever file is in place.
          if (!ctx.db.open) {
            ctx.db = open();
            ctx.encounters = new EncounterStore(ctx.db, { snapshotsAfterReply: true });
            markInUse(options.databasePath, options.transport !== 'cli');
            backfill?.wake();
          }
        }
      },
    },
  };
  /**
   * Every commit checkpointed into the file and the WAL emptied, then closed: nothing of the database is left only
   * in a -wal, so the -wal and -shm SQLite may leave can go, and none is there for SQLite to apply to the restored
   * file. Marked closed first (everything is in the file already): a kill from here until the reopening is a clean
   * stop, not a lost -wal.
   */
  function closeForRestore(): void {
    const [done] = ctx.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
    if (!done || done.busy !== 0) throw new Error('The database could not be checkpointed before the restore.');
    markClosed(options.databasePath);
    ctx.db.close();
    rmSync(`${options.databasePath}-wal`, { force: true });
    rmSync(`${options.databasePath}-shm`, { force: true });
  }
  ctx.encounters = new EncounterStore(ctx.db, { snapshotsAfterReply: true });
  // The desktop app and web mode mark the database as existing and in use (db/health.ts); the CLI, which may be
  // pointed at any copy by a script, creates nothing beside the files it opens, but keeps an existing marker's
  // state true (it too leaves a -wal after a crash, and deletes it on a clean close).
  markInUse(options.databasePath, options.transport !== 'cli');

  const autoBackup = (reason: string) => {
    if (!options.autoBackup) return;
    lastAutoBackup = Date.now();
    exclusively(() => ctx.backups.create(reason)).catch((error: unknown) => {
      // A backup abandoned because the app closed (a start that ends at once, a quit) is not a failure to report.
      if (!closing.signal.aborted) console.error('[gmw] automatic backup failed:', error);
    });
  };
  // The start's backup, once: when `startBackupAfter` settles, at the first change, or `startBackupLatestMs` after
  // opening, whichever comes first (docs/decisions.md "Backups do not hold the GM back").
  let startBackupDue = options.autoBackup === true;
  let startBackupTimer: ReturnType<typeof setTimeout> | undefined;
  const backUpOnStart = () => {
    if (!startBackupDue || closing.signal.aborted) return;
    startBackupDue = false;
    clearTimeout(startBackupTimer);
    autoBackup('start');
  };
  if (startBackupDue && options.startBackupAfter) {
    startBackupTimer = setTimeout(backUpOnStart, options.startBackupLatestMs ?? START_BACKUP_LATEST_MS);
    startBackupTimer.unref?.();
    void options.startBackupAfter.then(backUpOnStart, backUpOnStart);
  } else backUpOnStart();

  // Checkpoints after the reply, not inside a GM's write: SQLite's own checkpoint (every 1,000 WAL pages, kept as
  // the backstop) runs in the commit that crosses the mark, and that GM action then waits for the database file to
  // be written and flushed. Every CHECKPOINT_EVERY writes one runs as soon as the write's reply has gone out; it
  // keeps the WAL small, so commits rewrite its first pages instead of growing the file (docs/performance.md).
  // Once every frame is in the file, the next write starts the WAL over, writing and syncing a new header first
  // (about 0.15 ms here, one GM action in CHECKPOINT_EVERY): a write of the file's first page, with the value it
  // holds, starts it over right away instead, in the same turn.
  let writesSinceCheckpoint = 0;
  const marked = () => inUse.has(options.databasePath);
  const checkpointSoon = () => {
    // SQLite's own checkpoint may have written the file in this write: the marker follows (db/health.ts).
    if (marked()) noteDatabaseFile(options.databasePath);
    if (++writesSinceCheckpoint < CHECKPOINT_EVERY) return;
    writesSinceCheckpoint = 0;
    setImmediate(() => {
      try {
        if (!ctx.db.open || ctx.db.inTransaction) return;
        // The marker says a checkpoint is under way while it writes the file, then records the file it left.
        if (marked()) markDatabaseState(options.databasePath, 'checkpointing');
        const [done] = ctx.db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
        if (marked()) markDatabaseState(options.databasePath, 'open');
        if (done && done.busy === 0 && done.log > 0 && done.checkpointed === done.log) startWalOver(ctx.db);
      } catch (error) {
        // A checkpoint that cannot run now changes nothing: the next one, or SQLite's own, catches up.
        console.error('[gmw] checkpoint failed:', error);
      }
    });
  };

  // The snapshot an append owes every 50 events (about 84 KB at event 100,000 of a long fight, most of that append's
  // time) is a shortcut for resume, not the GM's data: it is written after the reply, in a transaction of its own
  // (docs/decisions.md), or before the next write when the event loop has not turned since (a script's writes in a
  // row), or on close. A crash before it only means a resume replays up to 50 more events.
  const writeOwedSnapshots = () => {
    if (!ctx.encounters.owesSnapshots() || !ctx.db.open || ctx.db.inTransaction) return;
    try {
      ctx.encounters.writeOwedSnapshots();
    } catch (error) {
      // A snapshot that cannot be written now (a full disk) changes nothing: resume replays the events instead.
      console.error('[gmw] a snapshot could not be written:', error);
    }
  };

  // Off the GM's way: chunks of a few milliseconds, never inside a write or beside a backup or restore; their writes
  // count towards the checkpoint after them like a GM's.
  const backfill = options.backfill
    ? backfillInBackground(() => ctx.db, () => !ctx.db.open || ctx.db.inTransaction || exclusiveJobs > 0, options.backfill === true ? {} : options.backfill, checkpointSoon)
    : null;

  // Every write has one time, later than the write before's by at least a millisecond: what one write stores shares
  // its time, and times put writes in the order they were made (history and timeline sort by them, a screen's
  // version is its encounter's last write time). Two writes used to share a millisecond on a fast machine.
  const readClock = ctx.now;
  let lastWrite = 0;
  const writeTime = (): (() => string) => {
    if (options.now) return options.now;
    lastWrite = Math.max(Date.now(), lastWrite + 1);
    const stamp = new Date(lastWrite).toISOString();
    return () => stamp;
  };

  function run(name: HandlerName, input: unknown): unknown {
    const handler = handlers[name] as (c: HandlerContext, i: unknown) => unknown;
    if (!WRITE_HANDLERS.has(name)) return handler(ctx, input);
    writeOwedSnapshots();
    pending = [];
    ctx.now = writeTime();
    try {
      return writeTransaction(ctx.db, () => handler(ctx, input));
    } catch (error) {
      pending = [];
      if (!(error instanceof GmError)) ctx.encounters.evictAll();
      throw error;
    } finally {
      ctx.now = readClock;
    }
  }

  return {
    async dispatch(name, input) {
      if (!isHandlerName(name)) return { error: { message: 'Unknown request.', kind: 'invalid' } };
      const parsed = inputSchemas[name].safeParse(input ?? {});
      if (!parsed.success) return { error: { message: describeInvalid(parsed.error), kind: 'invalid' } };
      try {
        const isBackup = name.startsWith('backups:') && name !== 'backups:list';
        let result: unknown;
        if (isBackup) {
          const job = exclusively(() => run(name, parsed.data));
          if (name === 'backups:restore') {
            restoresPending += 1;
            restoresDone = job.then(() => undefined, () => undefined).finally(() => { restoresPending -= 1; });
          }
          result = await job;
        } else {
          // A call made while a restore is asked for or under way waits for it, and runs on the restored file.
          if (restoresPending > 0) await restoresDone;
          result = run(name, parsed.data);
        }
        const notices = pending;
        pending = [];
        // The change notices go out after the reply, off the GM's wait (the writer's screen skips them anyway: they
        // carry the version its reply shows), in the next turn of the event loop, in the order of the writes.
        if (notices.length) setImmediate(() => notices.forEach(notify));
        if (WRITE_HANDLERS.has(name)) {
          if (ctx.encounters.owesSnapshots()) setImmediate(writeOwedSnapshots);
          checkpointSoon();
          if (startBackupDue) backUpOnStart();
          else if (Date.now() - lastAutoBackup > (options.autoBackupEveryMs ?? 10 * 60_000)) autoBackup('auto');
        }
        return { result };
      } catch (error) {
        if (error instanceof GmError) return { error: { message: error.message, kind: error.kind } };
        // A read-only file or a full disk is said as what it is (server/failure-sentences.ts), logged in one line.
        const sentence = sentenceFor(error, options.databasePath);
        if (sentence === null) console.error(`[gmw] ${name} failed:`, error);
        else if (options.transport !== 'cli') console.error(`[gmw] ${name} failed: ${logLine(error)}`);
        return { error: { message: sentence ?? GENERIC_FAILURE, kind: 'internal' } };
      }
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      listeners.clear();
      backfill?.stop();
      clearTimeout(startBackupTimer);
      writeOwedSnapshots();
      closing.abort();
      // `closing` before SQLite folds the -wal into the file and deletes it: a stop killed between that and
      // `closed` left nothing behind, and the next start must not call the missing -wal a loss.
      if (marked()) markDatabaseState(options.databasePath, 'closing');
      ctx.db.close();
      markClosed(options.databasePath);
    },
  };
}

/**
 * Databases this process marked as open (db/health.ts), each with the exit hook that marks it closed. On a normal
 * exit that skipped close(), better-sqlite3 still closes them (and SQLite deletes their -wal), so the hook marks
 * them closed first: only a crash leaves an `open` marker, and a crash leaves the -wal beside it.
 */
const inUse = new Map<string, () => void>();

function markInUse(databasePath: string, create: boolean): void {
  if (databasePath === ':memory:' || (!create && !existsSync(markerPath(databasePath)))) return;
  markDatabaseOpened(databasePath);
  inUse.get(databasePath)?.();
  inUse.set(databasePath, atExit(() => markDatabaseClosed(databasePath)));
}

function markClosed(databasePath: string): void {
  inUse.get(databasePath)?.();
  inUse.delete(databasePath);
  markDatabaseClosed(databasePath);
}
