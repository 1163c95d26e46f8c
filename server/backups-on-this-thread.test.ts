// Where a worker thread cannot load the SQLite module, a backup is made on the app's thread: through the app's own
// connection, a hundred pages per turn of the event loop, with calls going on between the turns.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backupDir } from '../db/backup.ts';
import { isGoodDatabaseFile } from '../db/read-only.ts';
import { copyBegun, fillWithPages, rowsOf } from './testing/backup-pages.ts';
import { useTestApp } from './testing/harness.ts';

vi.mock('node:worker_threads', () => ({
  Worker: class {
    constructor() {
      throw new Error('Worker threads are not available here.');
    }
  },
}));

const t = useTestApp();
const { ok } = t;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('backups without a worker thread', () => {
  it('are made on the app\'s thread, checked, and a write made during the copy reaches it', async () => {
    fillWithPages(t.dir.file());
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let backupDone = false;
    const backingUp = ok('backups:create', {}).then((backup) => { backupDone = true; return backup; });
    await copyBegun(t.dir.file());
    const during = await ok('campaigns:create', { name: 'During', rulesetId: 'enigma' });
    expect(backupDone).toBe(false);
    const backup = await backingUp;
    expect(warnings).toHaveBeenCalledWith(expect.stringContaining('Worker threads are not available here.'));
    const copy = join(backupDir(t.dir.file()), backup.name);
    expect(isGoodDatabaseFile(copy)).toBe(true);
    // The copy runs on the app's own connection, so SQLite carries the write into it.
    expect(rowsOf(copy, 'SELECT name FROM campaigns WHERE id = ?', during.id)).toEqual([{ name: 'During' }]);
    expect(rowsOf(copy, 'SELECT count(*) AS n FROM pages_to_copy')).toEqual([{ n: 1200 }]);
    expect(readdirSync(backupDir(t.dir.file()))).toEqual([backup.name]);
  });
});
