// Failures said as sentences: what is wrong and what to do, never "something went wrong" where the app can tell.
// Two kinds of error carry a sentence for the GM:
// - the app's own refusals at start (another process holds the lock, a newer schema, a damaged file, a file that
//   is not ours): an Error with `gmSentence = true`, whose message is the sentence, shown as it is;
// - the file system saying no: a read-only database or folder, a full disk (SQLite's and Node's codes), worded here.
// Every transport uses the same rule: the handler table's replies (dispatch), web mode's and gmw's start, and the
// desktop's error box.
import { accessSync, constants, existsSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';

/** The marker of an error whose message is a sentence for the GM (set on the class: `readonly gmSentence = true`). */
export interface GmSentence {
  readonly gmSentence: true;
}

export function isGmSentence(error: unknown): error is Error & GmSentence {
  return error instanceof Error && (error as Partial<GmSentence>).gmSentence === true;
}

/** What a write that failed for no reason the app knows answers (the details go to the log). */
export const GENERIC_FAILURE = 'Something went wrong and nothing was changed. The details are in the app log.';

export type FileSystemCause = 'readOnly' | 'full';

/** Below this much free space, a disk I/O error while writing is taken for a full disk (SQLite hides the errno). */
const NEARLY_FULL_BYTES = 1024 * 1024;

const codeOf = (error: unknown): string => String((error as { code?: unknown } | null | undefined)?.code ?? '');

function diskIsFull(databasePath: string): boolean {
  try {
    const disk = statfsSync(dirname(databasePath));
    return disk.bavail * disk.bsize < NEARLY_FULL_BYTES;
  } catch {
    return false;
  }
}

/** Whether this process may write the database file (when there is one) and create files beside it. */
export function canWrite(databasePath: string): boolean {
  try {
    if (existsSync(databasePath)) accessSync(databasePath, constants.W_OK);
    accessSync(dirname(databasePath), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why the file system refused, when it is one the GM can fix: SQLITE_READONLY* and EROFS/EACCES/EPERM (read-only),
 * SQLITE_FULL and ENOSPC (full). SQLite reports a failed write or fsync on a full disk, and a file it cannot open,
 * without the system's errno (SQLITE_IOERR_*, SQLITE_CANTOPEN), so for those the disk and the permissions are asked.
 */
export function fileSystemCause(error: unknown, databasePath: string): FileSystemCause | null {
  const code = codeOf(error);
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return 'readOnly';
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'full';
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN')) {
    if (diskIsFull(databasePath)) return 'full';
    if (!canWrite(databasePath)) return 'readOnly';
  }
  return null;
}

export function readOnlySentence(databasePath: string): string {
  return `The campaign database is read-only (${databasePath}): nothing was changed. Give GM Workstation write access to the file and its folder, or open a copy with --db.`;
}

/** Said at start when the database opened but cannot be written. */
export function readOnlyNotice(databasePath: string): string {
  return `The campaign database is read-only (${databasePath}): its campaigns can be looked at, but every change will be refused. Give GM Workstation write access to the file and its folder, or open a copy with --db.`;
}

export function diskFullSentence(databasePath: string): string {
  return `The disk holding the campaign database (${dirname(databasePath)}) is full: nothing was changed. Free some space and try again; your campaign is safe up to the last saved action.`;
}

/** The sentence for an error the app can explain, or null when it cannot (the caller then says it its own way). */
export function sentenceFor(error: unknown, databasePath: string): string | null {
  if (isGmSentence(error)) return error.message;
  const cause = fileSystemCause(error, databasePath);
  if (cause === 'readOnly') return readOnlySentence(databasePath);
  if (cause === 'full') return diskFullSentence(databasePath);
  return null;
}

/** One line for the log about an error the app explained (its code and SQLite's words, no stack). */
export function logLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = codeOf(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
