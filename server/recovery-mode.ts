// Recovery mode: when the database is damaged at start (db/health.ts), the app does not open its handler table.
// It answers only what the DamagedDatabase screen needs (what happened, the newest good backup) and the ways out:
// restore a backup, or start an empty database (and, when only the WAL was lost, go on with the file as it is).
// Restoring or starting empty moves the damaged file aside, never overwriting or deleting it, and then the app opens normally behind the same service object, so every transport
// (IPC, web mode) keeps the reference it already holds.
import { existsSync, renameSync } from 'node:fs';
import { GmError, inputSchemas, type BackupSummary, type Envelope, type RecoveryDone, type RecoveryStatus } from '../core/api/contract.ts';
import { isHandlerName, type ChangeNotice } from '../core/api/names.ts';
import { backupDir, listBackups } from '../db/backup.ts';
import { newestGoodBackup, type DatabaseHealth } from '../db/health.ts';
import { restoreBackup } from '../db/restore.ts';
import type { AppService, HandlerContext, OpenAppOptions } from './app.ts';
import { infoHandlers } from './handlers/info.ts';

type Damage = Extract<DatabaseHealth, { state: 'damaged' }>;
export type DamagedStatus = Extract<RecoveryStatus, { damaged: true }>;

const NOT_DAMAGED = 'The campaign database is not damaged, so there is nothing to recover.';

/** The recovery handlers of a normally opened app: it is not damaged, and recovery is refused. */
export const recoveryHandlers = {
  'recovery:status': (): RecoveryStatus => ({ damaged: false }),
  'recovery:restore': (): RecoveryDone => {
    throw new GmError(NOT_DAMAGED);
  },
  'recovery:startEmpty': (): RecoveryDone => {
    throw new GmError(NOT_DAMAGED);
  },
  'recovery:keep': (): RecoveryDone => {
    throw new GmError(NOT_DAMAGED);
  },
};

/** Thrown by openApp for the CLI, which has no screen to recover from: one sentence, exit code 4. */
export class DamagedDatabaseError extends Error {
  override name = 'DamagedDatabaseError';
  /** Its message is a sentence for the GM (server/failure-sentences.ts). */
  readonly gmSentence = true;
  constructor(readonly status: DamagedStatus) {
    super(damagedSentence(status));
  }
}

const summary = ({ name, createdAt, bytes, reason }: BackupSummary): BackupSummary => ({ name, createdAt, bytes, reason });

/** What the screen shows: the damage, where the file is, and the newest backup that passes quick_check. */
export function describeDamage(databasePath: string, damage: Damage, nativeBinding?: string): DamagedStatus {
  const good = newestGoodBackup(databasePath, nativeBinding);
  return {
    damaged: true,
    kind: damage.kind,
    sentence: damage.sentence,
    detail: damage.detail,
    databasePath,
    backupsFolder: backupDir(databasePath),
    newestGoodBackup: good ? summary(good) : null,
    backupCount: listBackups(databasePath).length,
  };
}

/** The CLI's sentence: what happened, where, and what can be done about it. */
export function damagedSentence(status: DamagedStatus): string {
  const backup = status.newestGoodBackup;
  const next = backup
    ? `the newest good backup is ${backup.name} in ${status.backupsFolder}; start the app to restore it`
    : `no good backup was found in ${status.backupsFolder}`;
  return `${status.sentence.replace(/\.$/, '')} (${status.databasePath}); ${next}.`;
}

const stampOf = (date: Date) => date.toISOString().replace(/[-:.]/g, '');

/**
 * Renames the damaged database and its -wal/-shm to `<name>.damaged-<stamp>` (`-wal`, `-shm` after it, so SQLite
 * still finds them together if someone opens the kept file). Returns the new path, or null when there was no
 * database file (a missing database). Nothing is deleted.
 */
export function moveDamagedAside(databasePath: string, now: Date): string | null {
  const aside = `${databasePath}.damaged-${stampOf(now)}`;
  const moved = existsSync(databasePath);
  if (moved) renameSync(databasePath, aside);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(`${databasePath}${suffix}`)) renameSync(`${databasePath}${suffix}`, `${aside}${suffix}`);
  }
  return moved ? aside : null;
}

/**
 * The service of an app in recovery mode. `openNormally` opens the handler table once a good database (or none)
 * is in place; from then on every call goes to it.
 */
export function openRecoveryService(
  options: OpenAppOptions,
  status: DamagedStatus,
  openNormally: () => AppService,
): AppService {
  const listeners = new Set<(notice: ChangeNotice) => void>();
  let normal: AppService | null = null;
  let unsubscribe = () => {};
  /** One recovery at a time (a double click must not move a restored database aside). */
  let working: Promise<unknown> = Promise.resolve();
  const now = () => new Date(options.now?.() ?? Date.now());

  function finish(done: RecoveryDone): RecoveryDone {
    normal = openNormally();
    unsubscribe = normal.onChange((notice) => {
      for (const listener of listeners) listener(notice);
    });
    for (const listener of listeners) listener({ area: 'campaigns', id: '*' });
    return done;
  }

  /** The one restore (db/restore.ts), the Backups screen's too; here the damaged file is moved aside to make way. */
  async function restore(name: string): Promise<RecoveryDone> {
    const damagedKeptAs = await restoreBackup(options.databasePath, name, () => moveDamagedAside(options.databasePath, now()), options.nativeBinding);
    return finish({ damagedKeptAs, restored: name });
  }

  function startEmpty(): RecoveryDone {
    return finish({ damagedKeptAs: moveDamagedAside(options.databasePath, now()), restored: null });
  }

  /**
   * Only a lost WAL, or one set aside as another file's, leaves a sound file to go on with; damaged pages or a
   * missing file never are.
   */
  function keep(): RecoveryDone {
    if (status.kind !== 'walMissing' && status.kind !== 'foreignWal') throw new GmError(`${status.sentence} It cannot be used as it is: restore a backup or start an empty database.`);
    return finish({ damagedKeptAs: null, restored: null });
  }

  const refusal = `${status.sentence} Restore a backup or start an empty database first.`;

  async function recover(name: string, input: unknown): Promise<Envelope<unknown>> {
    if (!isHandlerName(name)) return { error: { message: 'Unknown request.', kind: 'invalid' } };
    const parsed = inputSchemas[name].safeParse(input ?? {});
    if (!parsed.success) return { error: { message: 'The request is malformed.', kind: 'invalid' } };
    if (name === 'recovery:status') return { result: status };
    // The app's facts and its rulesets' need no database.
    if (name === 'app:info') return { result: infoHandlers['app:info']({ options } as HandlerContext) };
    if (name === 'rulesets:get') {
      try {
        return { result: infoHandlers['rulesets:get']({ options } as HandlerContext, parsed.data as { id: string }) };
      } catch (error) {
        if (error instanceof GmError) return { error: { message: error.message, kind: error.kind } };
        throw error;
      }
    }
    if (name !== 'recovery:restore' && name !== 'recovery:startEmpty' && name !== 'recovery:keep') return { error: { message: refusal, kind: 'refused' } };
    const job = working.then(async () => {
      // A second click arrives after the first recovery finished: the app is open normally by now.
      if (normal) return normal.dispatch(name, parsed.data);
      const done = name === 'recovery:restore' ? await restore((parsed.data as { name: string }).name) : name === 'recovery:keep' ? keep() : startEmpty();
      return { result: done };
    });
    working = job.catch(() => undefined);
    try {
      return await job;
    } catch (error) {
      if (error instanceof GmError) return { error: { message: error.message, kind: error.kind } };
      console.error(`[gmw] ${name} failed:`, error);
      return { error: { message: 'The recovery failed; the damaged file is kept. The details are in the app log.', kind: 'internal' } };
    }
  }

  return {
    async dispatch(name, input) {
      await working;
      return normal ? normal.dispatch(name, input) : recover(name, input);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      listeners.clear();
      unsubscribe();
      normal?.close();
    },
  };
}
